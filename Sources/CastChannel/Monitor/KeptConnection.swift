import CastDiscovery

#if canImport(Glibc)
import Glibc
#endif

/// One device's kept Cast channel, driven by the ``ReceiverMonitor``'s poll loop: a
/// non-blocking connect, the TLS handshake, then a kept session (CONNECT, GET_STATUS, PINGs
/// both ways, broadcasts taken as status changes) until it fails; then closed, and tried again
/// when the monitor says. Every method runs on the loop's thread; time comes in as instants.
final class KeptConnection {
    /// What one attempt reports to the monitor.
    enum Report {
        /// A status: the first of this connection, or a broadcast of a change.
        case status(ReceiverProbeResult)
        /// The attempt or the open channel failed at `at`; the connection is closed.
        case failed(ReceiverProbeResult, at: ContinuousClock.Instant)
        /// The answer to this connection's device-authentication challenge, or its absence.
        case deviceAuth(ReceiverProbeResult)
    }

    private enum Phase {
        case idle
        case connecting
        case handshaking
        case open
    }

    let endpoint: ReceiverEndpoint
    private let loop: PollLoop
    private let timing: CastChannelSession.Timing
    private let attemptTimeout: Duration
    private let authenticates: Bool
    private let report: (Report) -> Void

    private var phase = Phase.idle
    private var connection: TCPConnection?
    private var token: PollLoop.Token?
    private var tls: TLSSession?
    private var session: CastChannelSession?
    private var decoder = CastFrameDecoder()
    /// Ciphertext the socket has not taken yet.
    private var pending: [UInt8] = []
    private var started: ContinuousClock.Instant?
    private var connected: ContinuousClock.Instant?
    private var secured: ContinuousClock.Instant?
    private var result: ReceiverProbeResult

    /// The most ciphertext held for a receiver that does not read: past it the channel fails.
    static let pendingLimit = 256 * 1024

    init(
        endpoint: ReceiverEndpoint, loop: PollLoop, timing: CastChannelSession.Timing, attemptTimeout: Duration,
        authenticates: Bool = false, report: @escaping (Report) -> Void
    ) {
        self.endpoint = endpoint
        self.loop = loop
        self.timing = timing
        self.attemptTimeout = attemptTimeout
        self.authenticates = authenticates
        self.report = report
        result = ReceiverProbeResult(host: endpoint.host, port: endpoint.port)
    }

    /// Whether an attempt or an open channel is under way.
    var isActive: Bool { phase != .idle }

    /// Whether the channel is open (its status may still be awaited).
    var isOpen: Bool { phase == .open }

    /// Starts an attempt: connect, TLS, CONNECT and GET_STATUS, within the attempt time-out.
    func start(at now: ContinuousClock.Instant) {
        guard phase == .idle else { return }
        result = ReceiverProbeResult(host: endpoint.host, port: endpoint.port)
        started = now
        connected = nil
        secured = nil
        // Connecting from here: a connect that fails at once is reported as a failed attempt.
        phase = .connecting
        do throws(CastChannelError) {
            let (connection, done) = try TCPConnection.begin(address: endpoint.host, port: endpoint.port)
            self.connection = connection
            token = loop.register(
                connection.descriptor, name: "the Cast channel of \(endpoint)", events: Int16(POLLOUT)
            ) {
                [weak self] events in self?.ready(events, at: .now)
            }
            if done { try didConnect(at: now) }
        } catch {
            fail(error, at: now)
        }
    }

    /// When ``tick(at:)`` must next run: the attempt's time-out, the session's next PING or
    /// silence limit.
    var nextDeadline: ContinuousClock.Instant? {
        switch phase {
        case .idle: nil
        case .connecting, .handshaking: started.map { $0 + attemptTimeout }
        case .open: session?.nextDeadline
        }
    }

    /// What is due at `now`.
    func tick(at now: ContinuousClock.Instant) {
        switch phase {
        case .idle:
            return
        case .connecting, .handshaking:
            guard let started, now >= started + attemptTimeout else { return }
            fail(
                phase == .connecting
                    ? CastChannelError(.timeout, "no answer: the TCP connection took longer than the time-out")
                    : CastChannelError(
                        .tls, "the TLS handshake did not finish within the time-out (offered \(TLSSession.offered))"),
                at: now)
        case .open:
            guard var session else { return }
            let actions = session.tick(at: now)
            self.session = session
            perform(actions, at: now)
        }
    }

    /// Closes the channel (CLOSE and close_notify when it is open), with no report.
    func close() {
        if phase == .open, var session, let tls {
            for case .send(let message) in session.close() { pending += (try? tls.seal(message)) ?? [] }
            self.session = session
            tls.shutdown()
            pending += tls.takeOutgoing()
            if let connection { _ = try? connection.sendAvailable(pending[...]) }
        }
        teardown()
    }

    // MARK: - Events

    private func ready(_ events: Int16, at now: ContinuousClock.Instant) {
        do throws(CastChannelError) {
            switch phase {
            case .idle:
                return
            case .connecting:
                if let error = connection?.connectionError() { throw error }
                try didConnect(at: now)
            case .handshaking, .open:
                if events & Int16(POLLOUT) != 0 { try flush() }
                if events & Int16(POLLIN | POLLERR | POLLHUP) != 0 { try read(at: now) }
            }
        } catch {
            fail(error, at: now)
        }
    }

    private func didConnect(at now: ContinuousClock.Instant) throws(CastChannelError) {
        connected = now
        result.connectDuration = now - (started ?? now)
        tls = try TLSSession(serverName: endpoint.host)
        phase = .handshaking
        try handshake(at: now)
    }

    private func handshake(at now: ContinuousClock.Instant) throws(CastChannelError) {
        guard let tls else { return }
        let done = try tls.handshake()
        pending += tls.takeOutgoing()
        try flush()
        guard done else { return }
        secured = now
        result.tlsDuration = now - (connected ?? now)
        result.tls = tls.negotiated
        let remaining = max(.milliseconds(1), (started ?? now) + attemptTimeout - now)
        var session = CastChannelSession(
            mode: .keep,
            timing: .init(
                statusTimeout: remaining, heartbeatInterval: timing.heartbeatInterval, silenceLimit: timing.silenceLimit
            ), nonce: authenticates ? DeviceAuthEvidence.makeNonce() : nil)
        let actions = session.start(at: now)
        self.session = session
        phase = .open
        perform(actions, at: now)
    }

    private func read(at now: ContinuousClock.Instant) throws(CastChannelError) {
        guard let connection, let tls else { return }
        // A bounded amount per readiness, so one chatty receiver cannot hold the loop.
        for _ in 0..<16 {
            let bytes: [UInt8]
            do {
                bytes = try connection.receiveAvailable()
            } catch {
                throw phase == .handshaking && error.code == .closed
                    ? CastChannelError(.tls, "the receiver closed the connection during the TLS handshake") : error
            }
            guard !bytes.isEmpty else { return }
            tls.receive(bytes)
            if phase == .handshaking {
                try handshake(at: now)
                if phase != .open { continue }
            }
            let (messages, failure) = tls.readMessages(into: &decoder)
            pending += tls.takeOutgoing()
            // What came before a bad frame still counts (a status, then garbage).
            for message in messages {
                guard phase == .open, var session else { return }
                let actions = session.receive(message, at: now)
                self.session = session
                perform(actions, at: now)
            }
            if let failure { throw failure }
            guard phase == .open else { return }
            try flush()
        }
    }

    private func perform(_ actions: [CastChannelSession.Action], at now: ContinuousClock.Instant) {
        for action in actions {
            guard phase == .open, let tls else { return }
            switch action {
            case .send(let message):
                do throws(CastChannelError) {
                    pending += try tls.seal(message)
                    try flush()
                } catch {
                    return fail(error, at: now)
                }
            case .status(let status):
                if result.statusDuration == nil { result.statusDuration = now - (secured ?? now) }
                result.status = status
                result.error = nil
                result.duration = now - (started ?? now)
                report(.status(result))
            case .deviceAuth(let answer):
                result.deviceAuth = DeviceAuthEvidence(
                    response: answer, tlsCertificate: tls.peerCertificate ?? [], nonce: session?.nonce)
                report(.deviceAuth(result))
            case .finish(let error):
                return fail(error ?? CastChannelError(.closed, "the channel ended"), at: now)
            }
        }
    }

    /// Sends what the socket takes of the pending ciphertext; watches for output while some
    /// waits.
    private func flush() throws(CastChannelError) {
        guard let connection, let token else { return }
        if !pending.isEmpty {
            let sent = try connection.sendAvailable(pending[...])
            pending.removeFirst(sent)
        }
        if pending.count > Self.pendingLimit {
            throw CastChannelError(.timeout, "the receiver does not read what is sent (\(pending.count) bytes wait)")
        }
        loop.watch(token, for: Int16(POLLIN) | (pending.isEmpty ? 0 : Int16(POLLOUT)))
    }

    private func fail(_ error: CastChannelError, at now: ContinuousClock.Instant) {
        guard phase != .idle else { return }
        var failed = result
        failed.error = error
        failed.status = nil
        failed.duration = now - (started ?? now)
        teardown()
        report(.failed(failed, at: now))
    }

    private func teardown() {
        if let token { loop.deregister(token) }
        token = nil
        connection = nil
        tls = nil
        session = nil
        decoder = CastFrameDecoder()
        pending = []
        phase = .idle
    }
}
