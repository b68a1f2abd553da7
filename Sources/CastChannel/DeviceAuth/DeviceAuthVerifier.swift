import FoundationEssentials
internal import COpenSSL

/// Checks a receiver's answer to the device-authentication challenge the way Chrome and the
/// Cast SDK do (Open Screen's `cast_auth_util.cc`): bytes and a time in, a verdict out. It reads
/// no clock and does no I/O, so a saved answer gives the same verdict at the same time.
///
/// The checks, in order: the TLS certificate's lifetime (valid at the time, for at most 4 days
/// more); the signature by the device key over the echoed nonce and the TLS certificate; the
/// device certificate's path to a trusted root under Cast's rules; revocation, when a list is
/// at hand (the receiver's and the one given, each checked).
public struct DeviceAuthVerifier: Sendable {
    /// The longest a TLS certificate may still be valid for at the time of the check.
    public static let maximumTLSCertificateLifetime: Int64 = 4 * 86_400

    /// The roots trusted.
    public let trustStore: CastTrustStore
    /// A revocation list given by the user (a serialized `CrlBundle`), checked besides any
    /// the receiver sends.
    public let revocationList: [UInt8]?
    /// The certificates parsed and the lists verified so far, shared by copies of this verifier.
    private let cache = DeviceAuthCache()

    /// A verifier trusting `trustStore`, with a revocation list of your own.
    public init(trustStore: CastTrustStore = .google, revocationList: [UInt8]? = nil) {
        self.trustStore = trustStore
        self.revocationList = revocationList
    }

    /// The verdict on `payload` (the BINARY payload of the receiver's deviceauth message),
    /// given the receiver's TLS certificate (DER), the nonce sent (nil when unknown, as for a
    /// saved answer) and the time of the check.
    public func verify(response payload: [UInt8], tlsCertificate: [UInt8], nonceSent: [UInt8]?, at date: Date)
        -> DeviceAuthVerdict
    {
        let time = CertificateTime.seconds(date)
        ERR_clear_error()
        let message: DeviceAuthMessage
        do { message = try DeviceAuthMessage(decoding: payload) } catch {
            return DeviceAuthVerdict(failures: [DeviceAuthFailure(.malformed, error.message)], checks: .none)
        }
        // An error, even beside a response, is a refusal (Open Screen's ParseAuthMessage).
        if let error = message.error {
            return DeviceAuthVerdict(
                failures: [DeviceAuthFailure(.authError, "the receiver refused the challenge: \(error.name)")],
                checks: .none)
        }
        guard let response = message.response else {
            return DeviceAuthVerdict(
                failures: [DeviceAuthFailure(.malformed, "the answer carries neither a response nor an error")],
                checks: .none)
        }
        guard let device = cache.certificate(der: response.clientAuthCertificate) else {
            return DeviceAuthVerdict(
                failures: [DeviceAuthFailure(.malformed, "the device certificate is not DER")], checks: .none)
        }
        var intermediates: [X509Certificate] = []
        for (index, bytes) in response.intermediateCertificates.enumerated() {
            guard let certificate = cache.certificate(der: bytes) else {
                return DeviceAuthVerdict(
                    failures: [DeviceAuthFailure(.malformed, "intermediate certificate \(index + 1) is not DER")],
                    checks: .none,
                    deviceCertificate: Self.describe(device))
            }
            intermediates.append(certificate)
        }
        let echoed = response.senderNonce.map { echo in nonceSent.map { $0 == echo } ?? !echo.isEmpty } ?? false
        var failures: [DeviceAuthFailure] = []
        var checks = DeviceAuthVerdict.Checks.none

        // The TLS certificate: valid now, for at most 4 days more.
        switch tlsLifetime(tlsCertificate, at: time) {
        case nil: checks.tlsCertificate = .passed
        case let failure?:
            checks.tlsCertificate = .failed
            failures.append(failure)
        }

        // The signature over the echoed nonce and the TLS certificate.
        let signed = (response.senderNonce ?? []) + tlsCertificate
        if response.signatureAlgorithm == .rsassaPSS {
            checks.signature = .failed
            failures.append(
                DeviceAuthFailure(.signature, "the receiver signed with RSASSA-PSS; Cast devices sign with PKCS#1 v1.5")
            )
        } else if let key = device.publicKey,
            Digest.verifyPKCS1(signature: response.signature, over: signed, key: key, hash: response.hashAlgorithm)
        {
            checks.signature = .passed
        } else {
            checks.signature = .failed
            failures.append(
                DeviceAuthFailure(
                    .signature,
                    "the signature over the nonce and the TLS certificate does not verify with the device key "
                        + "(\(response.hashAlgorithm == .sha256 ? "SHA-256" : "SHA-1"))", certificate: device.subject))
        }

        // The path to a root, then revocation over it.
        var validator = CastPathValidator(anchors: trustStore.deviceAnchors, time: time)
        var verdictAnchor: CastTrustAnchor?
        var audioOnly = false
        var revocationSource: DeviceAuthVerdict.RevocationSource?
        switch validator.validate(device: device, intermediates: intermediates) {
        case .failure(let failure):
            checks.chain = .failed
            failures.append(failure)
        case .success(let path):
            checks.chain = .passed
            verdictAnchor = path.anchor
            audioOnly = path.audioOnly
            // An empty list field is no list (Open Screen reads the CRL only when it is not empty).
            let lists = [(response.crl, DeviceAuthVerdict.RevocationSource.device), (revocationList, .file)]
                .compactMap { bytes, source in bytes.flatMap { $0.isEmpty ? nil : ($0, source) } }
            if !lists.isEmpty {
                revocationSource = lists.count == 2 ? .deviceAndFile : lists[0].1
                checks.revocation = .passed
                for (bytes, _) in lists {
                    let found: DeviceAuthFailure?
                    switch CastRevocationList.verified(
                        bundle: bytes, anchors: trustStore.crlAnchors, time: time, cache: cache)
                    {
                    case .failure(let failure): found = failure
                    case .success(let list): found = list.revocation(of: path.certificates)
                    }
                    // Every list is checked, so the verdict names each one it was given.
                    if let found {
                        checks.revocation = .failed
                        failures.append(found)
                    }
                }
            }
        }
        return DeviceAuthVerdict(
            failures: failures, checks: checks, anchor: verdictAnchor?.subject, anchorKind: verdictAnchor?.kind,
            audioOnly: audioOnly, deviceCertificate: Self.describe(device),
            hashAlgorithm: response.hashAlgorithm == .sha256 ? "sha256" : "sha1", nonceEchoed: echoed,
            revocationSource: revocationSource)
    }

    /// Why the TLS certificate fails the lifetime rule; nil when it keeps it.
    private func tlsLifetime(_ der: [UInt8], at time: Int64) -> DeviceAuthFailure? {
        guard let certificate = cache.certificate(der: der) else {
            return DeviceAuthFailure(.tlsCertificate, "the TLS certificate cannot be read")
        }
        let subject = certificate.subject
        switch certificate.validityProblem(at: time) {
        case nil:
            break
        case .unreadable:
            return DeviceAuthFailure(
                .tlsCertificate, "the TLS certificate's validity period cannot be read", certificate: subject)
        case .notYetValid(let start):
            return DeviceAuthFailure(
                .tlsCertificate, "the TLS certificate is not valid before \(start)", certificate: subject)
        case .expired(let end):
            return DeviceAuthFailure(.tlsCertificate, "the TLS certificate expired on \(end)", certificate: subject)
        }
        guard let notAfter = certificate.notAfter else { return nil }
        if notAfter - time > Self.maximumTLSCertificateLifetime {
            return DeviceAuthFailure(
                .tlsCertificate,
                "the TLS certificate is valid until \(CertificateTime.text(notAfter)), more than 4 days ahead",
                certificate: certificate.subject)
        }
        return nil
    }

    private static func describe(_ certificate: X509Certificate) -> DeviceAuthVerdict.Certificate {
        DeviceAuthVerdict.Certificate(
            subject: certificate.subject, serial: certificate.serialText,
            notAfter: certificate.notAfter.map { Date(timeIntervalSince1970: Double($0)) },
            sha256: certificate.sha256.hexText)
    }
}

extension AuthError {
    /// The error type's name in `cast_channel.proto`.
    var name: String {
        switch self {
        case .internalError: "INTERNAL_ERROR"
        case .noTLS: "NO_TLS"
        case .signatureAlgorithmUnavailable: "SIGNATURE_ALGORITHM_UNAVAILABLE"
        }
    }
}
