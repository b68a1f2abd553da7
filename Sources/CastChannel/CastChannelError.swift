/// Why a receiver could not be asked for its status, with what was seen.
public struct CastChannelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The reason, as `error.code` in JSON gives it.
    public enum Code: String, Sendable, Hashable, Codable, CaseIterable {
        /// The host name does not resolve to an address.
        case resolve
        /// The TCP connection was refused (a reset: nothing listens on the port).
        case refused
        /// No answer in time (a firewall or VLAN that drops the packets, or a receiver that
        /// stopped talking).
        case timeout
        /// The TLS handshake failed (OpenSSL's reason in the message).
        case tls
        /// The receiver sent what the protocol does not allow: a frame too large, bytes that
        /// are not a CastMessage, a payload that is not JSON.
        case `protocol`
        /// Connected, but no RECEIVER_STATUS came in time.
        case noStatus
        /// The receiver closed the channel.
        case closed
    }

    /// The reason.
    public var code: Code
    /// What happened, in a few words.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
