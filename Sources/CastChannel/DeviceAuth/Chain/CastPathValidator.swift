internal import COpenSSL

/// Builds a device certificate's path to a trust anchor and checks it under Cast's rules (Open
/// Screen's `cast_cert_validator.cc`), which are not plain RFC 5280: the anchor's own validity
/// is not checked; RSA key sizes and keyUsage are; there is no extendedKeyUsage check.
///
/// Issuers are found by subject name, the anchors first, then the intermediates sent; a
/// candidate counts only when its key verifies the certificate's signature. Every path found is
/// checked until one passes; the failure reported is the first broken rule of the first path
/// that reached an anchor, or `untrustedChain` when none did.
struct CastPathValidator {
    /// A path that passed: the certificates from the device's to the anchor's.
    struct ValidPath {
        var certificates: [X509Certificate]
        var anchor: CastTrustAnchor
        var audioOnly: Bool
    }

    /// Cast's policy OID for audio-only devices.
    static let audioOnlyPolicy = "1.3.6.1.4.1.11129.2.5.2"
    /// The smallest RSA key taken, in bits.
    static let minimumRSABits = 2048
    /// The most signature checks one path search makes (a response holds at most 16
    /// intermediates, but names that repeat could make the search grow without end).
    static let maximumSignatureChecks = 256
    /// The certificate signature algorithms taken: RSA PKCS#1 v1.5 with SHA-1, -256, -384, -512.
    static let signatureAlgorithms: Set<Int32> = [
        NID_sha1WithRSAEncryption, NID_sha256WithRSAEncryption, NID_sha384WithRSAEncryption,
        NID_sha512WithRSAEncryption,
    ]

    let anchors: [CastTrustAnchor]
    /// The time of the check, seconds since 1970 (UTC).
    let time: Int64

    private var signatureChecks = 0
    private var ruleFailure: DeviceAuthFailure?

    init(anchors: [CastTrustAnchor], time: Int64) {
        self.anchors = anchors
        self.time = time
    }

    /// The first path from `device` through `intermediates` to an anchor that keeps every rule.
    mutating func validate(device: X509Certificate, intermediates: [X509Certificate]) -> Result<
        ValidPath, DeviceAuthFailure
    > {
        signatureChecks = 0
        ruleFailure = nil
        if let path = search([device], used: [], intermediates: intermediates) { return .success(path) }
        if let ruleFailure { return .failure(ruleFailure) }
        if signatureChecks >= Self.maximumSignatureChecks {
            return .failure(
                DeviceAuthFailure(.untrustedChain, "the path search gave up after \(signatureChecks) signature checks"))
        }
        let last = device.issuer
        return .failure(
            DeviceAuthFailure(
                .untrustedChain,
                "no path from the device certificate to a trusted root (it is issued by \(last), "
                    + "and none of the \(intermediates.count) intermediates sent leads to one)",
                certificate: device.subject))
    }

    private mutating func search(_ path: [X509Certificate], used: Set<Int>, intermediates: [X509Certificate])
        -> ValidPath?
    {
        guard let current = path.last else { return nil }
        for anchor in anchors where current.isIssued(byNameOf: anchor.certificate) {
            guard signed(current, by: anchor.certificate) else { continue }
            switch check(path, anchor: anchor) {
            case .success(let audioOnly):
                return ValidPath(certificates: path + [anchor.certificate], anchor: anchor, audioOnly: audioOnly)
            case .failure(let failure): if ruleFailure == nil { ruleFailure = failure }
            }
        }
        for (index, intermediate) in intermediates.enumerated() where !used.contains(index) {
            guard current.isIssued(byNameOf: intermediate), signed(current, by: intermediate) else { continue }
            if let found = search(path + [intermediate], used: used.union([index]), intermediates: intermediates) {
                return found
            }
        }
        return nil
    }

    private mutating func signed(_ certificate: X509Certificate, by issuer: X509Certificate) -> Bool {
        guard signatureChecks < Self.maximumSignatureChecks else { return false }
        signatureChecks += 1
        return certificate.isSigned(by: issuer)
    }

    /// Cast's rules over a path (the device's certificate first) ending at `anchor`; the
    /// audio-only policy when they hold.
    private func check(_ path: [X509Certificate], anchor: CastTrustAnchor) -> Result<Bool, DeviceAuthFailure> {
        let all = path + [anchor.certificate]
        var audioOnly = false
        for (position, certificate) in all.enumerated() {
            let isAnchor = position == all.count - 1
            if let broken = brokenRule(
                certificate, position: position, isAnchor: isAnchor, below: all[min(1, position)..<position])
            {
                return .failure(broken)
            }
            switch certificate.hasAudioOnlyPolicy {
            case true?: audioOnly = true
            case false?: break
            case nil: return .failure(rule(certificate, "its certificatePolicies extension cannot be read"))
            }
        }
        return .success(audioOnly)
    }

    private func brokenRule(
        _ certificate: X509Certificate, position: Int, isAnchor: Bool, below: ArraySlice<X509Certificate>
    ) -> DeviceAuthFailure? {
        if certificate.hasInvalidExtension { return rule(certificate, "an extension cannot be read or appears twice") }
        if certificate.hasUnknownCriticalExtension {
            return rule(certificate, "it has a critical extension Cast does not know")
        }
        if !isAnchor {
            if let failure = validity(certificate) { return failure }
            guard Self.signatureAlgorithms.contains(certificate.signatureAlgorithm) else {
                return rule(
                    certificate,
                    "it is signed with \(certificate.signatureAlgorithmName), not RSA PKCS#1 v1.5 with SHA-1 or SHA-2")
            }
            guard certificate.signatureAlgorithmsAgree else {
                return rule(certificate, "its signature algorithm differs outside and inside the signed part")
            }
        }
        guard let bits = certificate.rsaKeyBits else { return rule(certificate, "its key is not RSA") }
        guard bits >= Self.minimumRSABits else {
            return rule(certificate, "its RSA key has \(bits) bits, fewer than 2048")
        }
        if position == 0 {
            guard certificate.keyUsage != nil else {
                return rule(certificate, "the device certificate has no keyUsage extension")
            }
            guard certificate.allowsDigitalSignature else {
                return rule(certificate, "its keyUsage lacks digitalSignature")
            }
            return nil
        }
        guard certificate.isCertificateAuthority else {
            return rule(certificate, "it issues a certificate but is not a CA (basicConstraints)")
        }
        if certificate.keyUsage != nil, !certificate.allowsCertificateSigning {
            return rule(certificate, "it issues a certificate but its keyUsage lacks keyCertSign")
        }
        if let limit = certificate.pathLengthConstraint {
            let intermediatesBelow = below.filter { !$0.isSelfIssued }.count
            if intermediatesBelow > limit {
                return rule(
                    certificate, "its pathLenConstraint is \(limit) but \(intermediatesBelow) CA certificates follow it"
                )
            }
        }
        return nil
    }

    private func validity(_ certificate: X509Certificate) -> DeviceAuthFailure? {
        let subject = certificate.subject
        switch certificate.validityProblem(at: time) {
        case nil: return nil
        case .unreadable: return rule(certificate, "its validity period cannot be read")
        case .notYetValid(let start):
            return DeviceAuthFailure(.expired, "\(subject) is not valid before \(start)", certificate: subject)
        case .expired(let end): return DeviceAuthFailure(.expired, "\(subject) expired on \(end)", certificate: subject)
        }
    }

    private func rule(_ certificate: X509Certificate, _ what: String) -> DeviceAuthFailure {
        DeviceAuthFailure(.certificate, "\(certificate.subject): \(what)", certificate: certificate.subject)
    }
}
