/// A Cast revocation list that verified (Open Screen's `cast_crl.cc`): the first version-0 list
/// of a bundle, its signer certificate issued directly by a CRL anchor and valid at the time of
/// the check, its RSASSA-PKCS1-v1_5 SHA-256 signature over the `TbsCrl` bytes good, and the
/// time of the check within its period (never past the signer's notAfter).
struct CastRevocationList: Sendable {
    let list: CastTBSCRL
    /// The subject of the list's signer.
    let signer: String
    /// The revoked keys' hashes, for look-ups.
    let revokedKeys: Set<[UInt8]>

    /// The verified list of a bundle's bytes; one `cache` verified before and that holds at
    /// `time` is taken as it is.
    static func verified(
        bundle bytes: [UInt8], anchors: [CastTrustAnchor], time: Int64, cache: DeviceAuthCache
    ) -> Result<CastRevocationList, DeviceAuthFailure> {
        if let kept = cache.list(bytes, at: time) { return .success(kept) }
        let bundle: CastCRLBundle
        do { bundle = try CastCRLBundle(decoding: bytes) } catch { return .failure(failure(error.message)) }
        guard
            let crl = bundle.crls.first(where: { crl in
                (crl.tbsCRL.flatMap { try? CastTBSCRL(decoding: $0) }?.version ?? 1) == 0
            })
        else { return .failure(failure("the bundle holds no version-0 list")) }
        guard let tbsBytes = crl.tbsCRL, let signerBytes = crl.signerCertificate, let signature = crl.signature else {
            return .failure(failure("the list lacks its signed part, its signer or its signature"))
        }
        let list: CastTBSCRL
        do { list = try CastTBSCRL(decoding: tbsBytes) } catch { return .failure(failure(error.message)) }
        guard let signer = cache.certificate(der: signerBytes) else {
            return .failure(failure("its signer certificate is not DER"))
        }
        // The signer is held to the rules of a path's certificates.
        guard !signer.hasInvalidExtension, !signer.hasUnknownCriticalExtension,
            CastPathValidator.signatureAlgorithms.contains(signer.signatureAlgorithm), signer.signatureAlgorithmsAgree,
            (signer.rsaKeyBits ?? 0) >= CastPathValidator.minimumRSABits
        else {
            return .failure(
                failure(
                    "its signer \(signer.subject) breaks a Cast rule (an extension, its signature algorithm or an RSA key under 2048 bits)"
                ))
        }
        guard
            anchors.contains(where: {
                signer.isIssued(byNameOf: $0.certificate) && signer.isSigned(by: $0.certificate)
                    && isIssuer($0.certificate)
            })
        else { return .failure(failure("its signer \(signer.subject) is not issued by a CRL root")) }
        guard let signerNotBefore = signer.notBefore, let signerNotAfter = signer.notAfter,
            signerNotBefore <= time, time <= signerNotAfter
        else { return .failure(failure("its signer \(signer.subject) is not valid at the time of the check")) }
        guard let key = signer.publicKey,
            Digest.verifyPKCS1(signature: signature, over: tbsBytes, key: key, hash: .sha256)
        else {
            return .failure(failure("its signature does not verify"))
        }
        guard let notBefore = list.notBeforeSeconds, let notAfter = list.notAfterSeconds,
            notBefore <= UInt64(Int64.max), notAfter <= UInt64(Int64.max)
        else { return .failure(failure("it has no period of validity")) }
        let end = min(Int64(notAfter), signerNotAfter)
        guard Int64(notBefore) <= time, time <= end else {
            return .failure(
                failure(
                    "it holds from \(CertificateTime.text(Int64(notBefore))) to \(CertificateTime.text(end)), not at the time of the check"
                ))
        }
        for range in list.revokedSerialNumberRanges {
            guard let first = range.firstSerialNumber, let last = range.lastSerialNumber, first <= last,
                range.issuerPublicKeyHash != nil
            else {
                return .failure(failure("a serial number range is incomplete or ends before it starts"))
            }
        }
        let verified = CastRevocationList(
            list: list, signer: signer.subject, revokedKeys: Set(list.revokedPublicKeyHashes))
        cache.keep(verified, bytes: bytes, from: max(Int64(notBefore), signerNotBefore), until: end)
        return .success(verified)
    }

    /// The first certificate of `path` (the device's first, the anchor's last) the list revokes,
    /// and how: by its key, or by its serial number under its issuer's key.
    func revocation(of path: [X509Certificate]) -> DeviceAuthFailure? {
        for (position, certificate) in path.enumerated() {
            if revokedKeys.contains(certificate.keyHash) {
                return DeviceAuthFailure(
                    .revoked, "\(certificate.subject) is revoked by its key", certificate: certificate.subject)
            }
            guard position + 1 < path.count, let serial = certificate.serialUInt64 else { continue }
            let issuerKey = path[position + 1].keyHash
            for range in list.revokedSerialNumberRanges where range.issuerPublicKeyHash == issuerKey {
                if let first = range.firstSerialNumber, let last = range.lastSerialNumber, first <= serial,
                    serial <= last
                {
                    return DeviceAuthFailure(
                        .revoked, "\(certificate.subject) is revoked by its serial number \(certificate.serialText)",
                        certificate: certificate.subject)
                }
            }
        }
        return nil
    }

    private static func isIssuer(_ anchor: X509Certificate) -> Bool {
        anchor.isCertificateAuthority && (anchor.keyUsage == nil || anchor.allowsCertificateSigning)
    }

    private static func failure(_ why: String) -> DeviceAuthFailure {
        DeviceAuthFailure(.crl, "the revocation list does not verify: \(why)")
    }
}
