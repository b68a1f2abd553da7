import FoundationEssentials

/// What a receiver gave for the device-authentication challenge on one connection: its answer
/// as received, its TLS certificate, and the nonce sent: all a verdict needs but the time, and
/// what `cast-scan status --save-auth` writes for a bug report.
public struct DeviceAuthEvidence: Sendable, Hashable {
    /// The answer's BINARY payload (a DeviceAuthMessage); nil when none came in time.
    public var response: [UInt8]?
    /// The TLS certificate the receiver presented (DER).
    public var tlsCertificate: [UInt8]
    /// The nonce sent; nil when not known (a saved answer).
    public var nonce: [UInt8]?

    /// Evidence.
    public init(response: [UInt8]?, tlsCertificate: [UInt8], nonce: [UInt8]?) {
        self.response = response
        self.tlsCertificate = tlsCertificate
        self.nonce = nonce
    }

    /// The verdict `verifier` gives on this evidence at `date`.
    public func verdict(by verifier: DeviceAuthVerifier, at date: Date) -> DeviceAuthVerdict {
        guard let response else { return .noResponse("no answer to the device-authentication challenge in time") }
        return verifier.verify(response: response, tlsCertificate: tlsCertificate, nonceSent: nonce, at: date)
    }

    /// The DER of a certificate given as DER or PEM (the first one of a PEM file); nil when the
    /// bytes hold no certificate.
    public static func certificateDER(pemOrDER bytes: [UInt8]) -> [UInt8]? {
        X509Certificate.certificates(pemOrDER: bytes)?.first?.der
    }

    /// 16 random bytes for a challenge, as Chrome sends.
    public static func makeNonce() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
