import CastDiscovery
import Synchronization

/// Asks receivers for their status over the Cast channel, directly (no discovery): TCP, TLS,
/// CONNECT and GET_STATUS, within one time-out for all three phases.
public enum ReceiverProbe {
    /// The port of a receiver's Cast channel when none is given.
    public static let defaultPort: UInt16 = 8009

    /// Asks `host` on `port` for its status; never throws: what went wrong is the result's
    /// ``ReceiverProbeResult/error``. Runs on a thread of its own; cancelling the task ends it
    /// within 0.2 s.
    public static func probe(host: String, port: UInt16 = defaultPort, timeout: Duration) async -> ReceiverProbeResult {
        let box = CancellationFlag()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<ReceiverProbeResult, Never>) in
                do {
                    try LoopThread.start {
                        continuation.resume(returning: run(host: host, port: port, timeout: timeout, cancelled: { box.isSet }))
                    }
                } catch {
                    var result = ReceiverProbeResult(host: host, port: port)
                    result.error = CastChannelError(.refused, "\(error)")
                    continuation.resume(returning: result)
                }
            }
        } onCancel: {
            box.set()
        }
    }

    /// The probe, blocking the calling thread.
    static func run(host: String, port: UInt16, timeout: Duration, cancelled: () -> Bool) -> ReceiverProbeResult {
        let start = ContinuousClock.now
        var result = attempt(host: host, port: port, start: start, timeout: timeout, cancelled: cancelled)
        result.duration = ContinuousClock.now - start
        return result
    }

    private static func attempt(
        host: String, port: UInt16, start: ContinuousClock.Instant, timeout: Duration, cancelled: () -> Bool
    ) -> ReceiverProbeResult {
        var result = ReceiverProbeResult(host: host, port: port)
        let deadline = start + timeout
        do throws(CastChannelError) {
            let connection = try TCPConnection.connect(host: host, port: port, deadline: deadline, cancelled: cancelled)
            let connected = ContinuousClock.now
            result.connectDuration = connected - start
            let tls = try TLSClient(serverName: host)
            try handshake(tls, over: connection, deadline: deadline, cancelled: cancelled)
            let secured = ContinuousClock.now
            result.tlsDuration = secured - connected
            result.tls = tls.negotiated.map { TLSParameters(protocol: $0.protocolVersion, cipher: $0.cipher) }
            var session = CastChannelSession(mode: .once, timing: .init(statusTimeout: max(.zero, deadline - secured)))
            var decoder = CastFrameDecoder()
            var actions = session.start(at: secured)
            while true {
                for action in actions {
                    switch action {
                    case .send(let message):
                        try tls.send(try CastFrameDecoder.frame(message))
                        try connection.send(tls.takeOutgoing(), deadline: deadline, cancelled: cancelled)
                    case .status(let status):
                        result.status = status
                        result.statusDuration = ContinuousClock.now - secured
                    case .finish(let error):
                        if let error { throw error }
                        tls.shutdown()
                        try? connection.send(tls.takeOutgoing(), deadline: deadline, cancelled: cancelled)
                        return result
                    }
                }
                actions = []
                let bytes = try connection.receive(until: min(session.nextDeadline ?? deadline, deadline), cancelled: cancelled)
                let now = ContinuousClock.now
                if !bytes.isEmpty {
                    tls.receive(bytes)
                    while !session.isFinished {
                        let plaintext = try tls.read()
                        if plaintext.isEmpty { break }
                        decoder.append(plaintext)
                        while let message = try decoder.next() {
                            actions += session.receive(message, at: now)
                            if session.isFinished { break }
                        }
                    }
                    // Answers to the receiver's PINGs, TLS's own records.
                    let pending = tls.takeOutgoing()
                    if !pending.isEmpty { try connection.send(pending, deadline: deadline, cancelled: cancelled) }
                }
                actions += session.tick(at: now)
            }
        } catch {
            result.error = error
            if error.code == .noStatus, result.status == nil, cancelled() {
                result.error = CastChannelError(.timeout, "stopped before the status came")
            }
            return result
        }
    }

    /// Runs the TLS handshake over `connection` before `deadline`.
    private static func handshake(
        _ tls: TLSClient, over connection: TCPConnection, deadline: ContinuousClock.Instant, cancelled: () -> Bool
    ) throws(CastChannelError) {
        while true {
            let done = try tls.handshake()
            let outgoing = tls.takeOutgoing()
            if !outgoing.isEmpty { try connection.send(outgoing, deadline: deadline, cancelled: cancelled) }
            if done { return }
            let bytes: [UInt8]
            do {
                bytes = try connection.receive(until: deadline, cancelled: cancelled)
            } catch {
                throw error.code == .closed ? CastChannelError(.tls, "the receiver closed the connection during the TLS handshake") : error
            }
            if bytes.isEmpty {
                if cancelled() { throw CastChannelError(.timeout, "stopped during the TLS handshake") }
                if ContinuousClock.now >= deadline {
                    throw CastChannelError(.tls, "the TLS handshake did not finish within the time-out (offered \(TLSClient.offered))")
                }
                continue
            }
            tls.receive(bytes)
        }
    }
}

/// Set once, from a cancellation handler; read by the probe's thread.
private final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .acquiring) }
    func set() { flag.store(true, ordering: .releasing) }
}
