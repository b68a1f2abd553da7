/// What asking one receiver for its status gave: reachable with a status, or the reason it was
/// not, with how long each phase took.
public struct ReceiverProbeResult: Sendable, Hashable {
    /// The host asked, as given.
    public var host: String
    /// The port asked.
    public var port: UInt16
    /// The reason it did not answer; nil when it did.
    public var error: CastChannelError?
    /// How long the TCP connection took; nil when it was not made.
    public var connectDuration: Duration?
    /// How long the TLS handshake took; nil when it did not finish.
    public var tlsDuration: Duration?
    /// How long the status took after the handshake; nil when none came.
    public var statusDuration: Duration?
    /// How long the whole probe took, measured by the probe itself (not by whoever awaited it).
    public var duration: Duration = .zero
    /// What the TLS handshake agreed (`TLSv1.3`, the cipher).
    public var tls: TLSParameters?
    /// The receiver's status.
    public var status: ReceiverStatus?
    /// What the receiver gave for the device-authentication challenge; nil when it was not
    /// asked, or the channel ended before the challenge's time was up.
    public var deviceAuth: DeviceAuthEvidence?

    /// Whether the receiver answered with its status.
    public var isReachable: Bool { error == nil && status != nil }

    /// Creates a result.
    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// The result for a device with no address to ask (`resolve`).
    public static func noAddress(port: UInt16) -> ReceiverProbeResult {
        var result = ReceiverProbeResult(host: "", port: port)
        result.error = CastChannelError(.resolve, "the device has no address")
        return result
    }
}

/// The protocol and cipher a TLS handshake agreed.
public struct TLSParameters: Sendable, Hashable, Codable {
    /// `TLSv1.3`, `TLSv1.2`.
    public var `protocol`: String
    /// OpenSSL's name of the cipher suite.
    public var cipher: String

    /// Creates the parameters.
    public init(protocol: String, cipher: String) {
        self.protocol = `protocol`
        self.cipher = cipher
    }
}
