import CastChannel
import FoundationEssentials

/// The device-authentication messages and the Cast revocation list:
/// `DeviceAuthMessage(decoding:)`, `CastCRLBundle(decoding:)` and `CastTBSCRL(decoding:)`, each
/// on the whole input.
///
/// - What decodes is within its bounds (intermediates, certificate, signature, nonce, CRL and
///   hash sizes, lists and entries), re-encodes, and decodes again to the same value.
/// - A response's CRL, and each list's signed part, is decoded too, with the same properties.
/// - Errors are `CastChannelError`s of kind `protocol` whose text holds no raw control character.
/// - The verifier, given the input as the answer, the TLS certificate and a revocation list,
///   trusting Google's roots only, never calls it authenticated (nobody but Google holds their
///   keys), names a failure, and says an anchor exactly when the chain passed.
public enum DeviceAuthProperties {
    static let property = Property(target: "device-auth")

    public static func check(_ bytes: [UInt8]) throws(PropertyFailure) {
        if let message = try decoded("DeviceAuthMessage", try DeviceAuthMessage(decoding: bytes)) {
            try checkBounds(message)
            let encoded = message.encoded()
            let again = try decoded("a re-encoded DeviceAuthMessage", try DeviceAuthMessage(decoding: encoded))
            try property.require(again == message, "a DeviceAuthMessage re-encoded reads back otherwise")
            if let crl = message.response?.crl { try checkBundle(crl) }
        }
        try checkBundle(bytes)
        try checkTBS(bytes)
        try checkVerdict(bytes)
    }

    /// The time every verdict is given at: 2026-12-06T12:00:00Z.
    static let time = Date(timeIntervalSince1970: 1_796_558_400)

    private static func checkVerdict(_ bytes: [UInt8]) throws(PropertyFailure) {
        for verifier in [DeviceAuthVerifier(), DeviceAuthVerifier(revocationList: bytes)] {
            let verdict = verifier.verify(response: bytes, tlsCertificate: bytes, nonceSent: nil, at: time)
            try property.require(!verdict.authenticated, "arbitrary bytes authenticated against Google's roots")
            try property.require(!verdict.failures.isEmpty, "a verdict that is not authenticated names no failure")
            try property.require(
                (verdict.checks.chain == .passed) == (verdict.anchor != nil),
                "the chain \(verdict.checks.chain) but the anchor \(verdict.anchor ?? "none")")
        }
    }

    private static func checkBounds(_ message: DeviceAuthMessage) throws(PropertyFailure) {
        let nonce = message.challenge?.senderNonce?.count ?? 0
        try property.require(nonce <= DeviceAuthMessage.maximumNonceBytes, "a nonce of \(nonce) bytes")
        guard let response = message.response else { return }
        let certificates = [response.clientAuthCertificate] + response.intermediateCertificates
        try property.require(
            response.intermediateCertificates.count <= DeviceAuthMessage.maximumIntermediates
                && certificates.allSatisfy { $0.count <= DeviceAuthMessage.maximumCertificateBytes }
                && response.signature.count <= DeviceAuthMessage.maximumSignatureBytes
                && (response.senderNonce?.count ?? 0) <= DeviceAuthMessage.maximumNonceBytes
                && (response.crl?.count ?? 0) <= CastCRLBundle.maximumBytes,
            "a response past its bounds: certificates of \(certificates.map(\.count)) bytes, "
                + "a signature of \(response.signature.count)")
    }

    private static func checkBundle(_ bytes: [UInt8]) throws(PropertyFailure) {
        guard let bundle = try decoded("CastCRLBundle", try CastCRLBundle(decoding: bytes)) else { return }
        try property.require(bundle.crls.count <= CastCRLBundle.maximumCRLs, "a bundle of \(bundle.crls.count) lists")
        let again = try decoded("a re-encoded CastCRLBundle", try CastCRLBundle(decoding: bundle.encoded()))
        try property.require(again == bundle, "a CRL bundle re-encoded reads back otherwise")
        for crl in bundle.crls {
            if let tbs = crl.tbsCRL { try checkTBS(tbs) }
        }
    }

    private static func checkTBS(_ bytes: [UInt8]) throws(PropertyFailure) {
        guard let tbs = try decoded("CastTBSCRL", try CastTBSCRL(decoding: bytes)) else { return }
        try property.require(
            tbs.revokedPublicKeyHashes.count <= CastTBSCRL.maximumEntries
                && tbs.revokedSerialNumberRanges.count <= CastTBSCRL.maximumEntries
                && tbs.revokedPublicKeyHashes.allSatisfy { $0.count <= 64 },
            "a TbsCrl past its bounds")
        let again = try decoded("a re-encoded CastTBSCRL", try CastTBSCRL(decoding: tbs.encoded()))
        try property.require(again == tbs, "a TbsCrl re-encoded reads back otherwise")
    }

    /// The value `decoding` gives, or nil once the error it threw is checked.
    private static func decoded<Value>(
        _ what: String, _ decoding: @autoclosure () throws(CastChannelError) -> Value
    ) throws(PropertyFailure) -> Value? {
        do {
            return try decoding()
        } catch {
            try property.require(error.code == .protocol, "\(what) threw a \(error.code.rawValue) error: \(error)")
            try property.requireNoRawControl(error.description, in: "\(what)'s error")
            return nil
        }
    }
}
