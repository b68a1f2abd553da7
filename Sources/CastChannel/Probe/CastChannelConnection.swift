/// An open Cast channel: TLS over a TCP connection, cut into messages, within one deadline.
/// What the probe's conversation sends and reads goes through it; one thread at a time.
struct CastChannelConnection {
    private let connection: TCPConnection
    private let tls: TLSSession
    private let deadline: ContinuousClock.Instant
    private let cancelled: () -> Bool
    private var decoder = CastFrameDecoder()
    /// A frame that could not be read after the messages returned with it: thrown next time,
    /// so a status that came before it still counts.
    private var pendingError: CastChannelError?

    /// Runs the TLS handshake over `connection` before `deadline`.
    init(
        tls: TLSSession, over connection: TCPConnection, deadline: ContinuousClock.Instant,
        cancelled: @escaping () -> Bool
    ) throws(CastChannelError) {
        self.connection = connection
        self.tls = tls
        self.deadline = deadline
        self.cancelled = cancelled
        while try !tls.handshake() {
            try flush()
            let bytes: [UInt8]
            do {
                bytes = try connection.receive(until: deadline, cancelled: cancelled)
            } catch {
                throw error.code == .closed
                    ? CastChannelError(.tls, "the receiver closed the connection during the TLS handshake") : error
            }
            guard bytes.isEmpty else {
                tls.receive(bytes)
                continue
            }
            if cancelled() { throw CastChannelError(.timeout, "stopped during the TLS handshake") }
            if ContinuousClock.now >= deadline {
                throw CastChannelError(
                    .tls, "the TLS handshake did not finish within the time-out (offered \(TLSSession.offered))")
            }
        }
        try flush()
    }

    /// What the handshake agreed.
    var negotiated: TLSParameters? {
        tls.negotiated
    }

    /// The receiver's TLS certificate (DER).
    var peerCertificate: [UInt8]? {
        tls.peerCertificate
    }

    /// Sends `message` as a frame.
    func send(_ message: CastMessage) throws(CastChannelError) {
        try connection.send(try tls.seal(message), deadline: deadline, cancelled: cancelled)
    }

    /// The messages that arrive before `until` (none when nothing does).
    mutating func messages(until: ContinuousClock.Instant) throws(CastChannelError) -> [CastMessage] {
        if let pendingError { throw pendingError }
        let bytes = try connection.receive(until: min(until, deadline), cancelled: cancelled)
        guard !bytes.isEmpty else { return [] }
        tls.receive(bytes)
        let (messages, failure) = tls.readMessages(into: &decoder)
        if let failure {
            guard !messages.isEmpty else { throw failure }
            pendingError = failure
            return messages
        }
        // TLS's own records (a key update, an alert) go out now.
        try flush()
        return messages
    }

    /// Ends the TLS session (close_notify) as well as the receiver lets it.
    func close() {
        tls.shutdown()
        try? flush()
    }

    private func flush() throws(CastChannelError) {
        let outgoing = tls.takeOutgoing()
        if !outgoing.isEmpty { try connection.send(outgoing, deadline: deadline, cancelled: cancelled) }
    }
}
