import Foundation

@testable import CastChannel

/// The certificates, signatures and revocation lists `Tests/Scripts/deviceauth-fixtures.sh`
/// makes with the openssl command (Fixtures/deviceauth), and answers built from them.
enum DeviceAuthFixtures {
    /// The time every fixture is made around: 2026-12-06T12:00:00Z.
    static let time = Date(timeIntervalSince1970: 1_796_558_400)

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/deviceauth")

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// A certificate's DER, from its PEM fixture.
    static func der(_ name: String) throws -> [UInt8] {
        guard let certificate = X509Certificate.certificates(pemOrDER: try bytes("\(name).pem"))?.first else {
            throw FixtureError.unreadable(name)
        }
        return certificate.der
    }

    /// The lab root (and the lab CRL root) as anchors of your own, beside Google's.
    static func labStore(root: String = "root") throws -> CastTrustStore {
        CastTrustStore.google.adding(
            try CastTrustAnchor.custom(pemOrDER: try bytes("\(root).pem"))
                + CastTrustAnchor.custom(pemOrDER: try bytes("crl-root.pem")))
    }

    /// A deviceauth response's payload: the device certificate, intermediates, a signature over
    /// the nonce and `tls`, with SHA-256 unless told.
    static func response(
        device: String = "device", intermediates: [String] = ["ica"], signature: String = "signature-tls-sha256",
        hash: DeviceAuthHashAlgorithm = .sha256, echoNonce: Bool = true, crl: String? = nil,
        signatureAlgorithm: DeviceAuthSignatureAlgorithm = .rsassaPKCS1v15
    ) throws -> [UInt8] {
        let message = DeviceAuthMessage(
            response: AuthResponse(
                signature: try bytes("\(signature).bin"), clientAuthCertificate: try der(device),
                intermediateCertificates: try intermediates.map(der), signatureAlgorithm: signatureAlgorithm,
                senderNonce: echoNonce ? try bytes("nonce.bin") : nil, hashAlgorithm: hash,
                crl: try crl.map { try bytes("crl-\($0).bin") }))
        return message.encoded()
    }

    /// The verdict on `payload` against the TLS certificate `tls`, at the fixtures' time.
    static func verdict(
        _ payload: [UInt8], tls: String = "tls", store: CastTrustStore? = nil, crl: String? = nil
    ) throws -> DeviceAuthVerdict {
        let verifier = DeviceAuthVerifier(
            trustStore: try store ?? labStore(), revocationList: try crl.map { try bytes("crl-\($0).bin") })
        return verifier.verify(
            response: payload, tlsCertificate: try der(tls), nonceSent: try bytes("nonce.bin"), at: time)
    }

    enum FixtureError: Error { case unreadable(String) }
}
