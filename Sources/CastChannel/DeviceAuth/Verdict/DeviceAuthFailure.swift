/// Why a receiver is not authenticated: which check failed, for which certificate, and why.
public struct DeviceAuthFailure: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The kind of failure, as `auth.failure` in JSON and the AUTH column give it.
    public enum Code: String, Sendable, Hashable, Codable, CaseIterable {
        /// No deviceauth answer came in time.
        case noResponse
        /// The receiver answered with an AuthError (its type in the message).
        case authError
        /// The answer cannot be read: not a DeviceAuthMessage, a part past its bound, a
        /// certificate that is not DER.
        case malformed
        /// The TLS certificate is not yet valid, has expired, or is valid for more than 4 days.
        case tlsCertificate
        /// The signature over the nonce and the TLS certificate does not verify.
        case signature
        /// The device certificate does not chain to a trusted root.
        case untrustedChain
        /// A certificate in the path breaks one of Cast's rules (which one, and the rule).
        case certificate
        /// A certificate in the path has expired or is not yet valid (which one).
        case expired
        /// A certificate in the path is revoked (which one, by key or by serial number).
        case revoked
        /// A revocation list does not verify, or does not hold at the time of the check.
        case crl
    }

    /// The kind of failure.
    public var code: Code
    /// What failed, in a sentence.
    public var message: String
    /// The subject of the certificate concerned, when one is.
    public var certificate: String?

    /// A failure.
    public init(_ code: Code, _ message: String, certificate: String? = nil) {
        self.code = code
        self.message = message
        self.certificate = certificate
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
