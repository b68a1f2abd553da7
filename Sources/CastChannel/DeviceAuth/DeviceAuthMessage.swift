/// A message of the device-authentication namespace (`urn:x-cast:com.google.cast.tp.deviceauth`,
/// a BINARY payload): the sender's challenge, the receiver's response or its error, as
/// `cast_channel.proto` defines `DeviceAuthMessage`. Each part is optional on the wire; the
/// verifier decides what a message without a response means.
package struct DeviceAuthMessage: Hashable, Sendable {
    package var challenge: AuthChallenge?
    package var response: AuthResponse?
    package var error: AuthError?

    package init(challenge: AuthChallenge? = nil, response: AuthResponse? = nil, error: AuthError? = nil) {
        self.challenge = challenge
        self.response = response
        self.error = error
    }
}

/// How the receiver is to sign (`SignatureAlgorithm`; proto2's default is PKCS#1 v1.5).
package enum DeviceAuthSignatureAlgorithm: UInt8, Hashable, Sendable {
    case unspecified = 0
    case rsassaPKCS1v15 = 1
    case rsassaPSS = 2
}

/// The hash the receiver is to sign with (`HashAlgorithm`; proto2's default is SHA-1).
package enum DeviceAuthHashAlgorithm: UInt8, Hashable, Sendable {
    case sha1 = 0
    case sha256 = 1
}

/// The sender's challenge: Chrome and Open Screen send a 16-byte nonce and SHA-256, nothing else.
package struct AuthChallenge: Hashable, Sendable {
    package var signatureAlgorithm: DeviceAuthSignatureAlgorithm?
    package var senderNonce: [UInt8]?
    package var hashAlgorithm: DeviceAuthHashAlgorithm?

    package init(
        signatureAlgorithm: DeviceAuthSignatureAlgorithm? = nil, senderNonce: [UInt8]? = nil,
        hashAlgorithm: DeviceAuthHashAlgorithm? = nil
    ) {
        self.signatureAlgorithm = signatureAlgorithm
        self.senderNonce = senderNonce
        self.hashAlgorithm = hashAlgorithm
    }
}

/// The receiver's answer: its signature over the echoed nonce and its TLS certificate, its device
/// certificate and the intermediates that lead to a Cast root, and perhaps a revocation list.
package struct AuthResponse: Hashable, Sendable {
    package var signature: [UInt8]
    /// The device certificate (DER).
    package var clientAuthCertificate: [UInt8]
    /// The intermediate certificates (DER), in the order sent.
    package var intermediateCertificates: [[UInt8]]
    /// The algorithm the receiver says it signed with (PKCS#1 v1.5 when not sent).
    package var signatureAlgorithm: DeviceAuthSignatureAlgorithm
    /// The nonce echoed; older firmware sends none.
    package var senderNonce: [UInt8]?
    /// The hash the receiver says it signed with (SHA-1 when not sent).
    package var hashAlgorithm: DeviceAuthHashAlgorithm
    /// A serialized `CrlBundle` (``CastCRLBundle``), when the receiver sends one.
    package var crl: [UInt8]?

    package init(
        signature: [UInt8], clientAuthCertificate: [UInt8], intermediateCertificates: [[UInt8]] = [],
        signatureAlgorithm: DeviceAuthSignatureAlgorithm = .rsassaPKCS1v15, senderNonce: [UInt8]? = nil,
        hashAlgorithm: DeviceAuthHashAlgorithm = .sha1, crl: [UInt8]? = nil
    ) {
        self.signature = signature
        self.clientAuthCertificate = clientAuthCertificate
        self.intermediateCertificates = intermediateCertificates
        self.signatureAlgorithm = signatureAlgorithm
        self.senderNonce = senderNonce
        self.hashAlgorithm = hashAlgorithm
        self.crl = crl
    }
}

/// The receiver's refusal to answer a challenge.
package enum AuthError: UInt8, Hashable, Sendable {
    case internalError = 0
    case noTLS = 1
    case signatureAlgorithmUnavailable = 2
}
