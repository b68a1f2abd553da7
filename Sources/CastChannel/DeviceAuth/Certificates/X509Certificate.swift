import FoundationEssentials
internal import COpenSSL

/// One X.509 certificate parsed by libcrypto, with what the Cast rules read of it: names,
/// serial, validity, key, extensions and signature algorithm. Immutable once parsed.
final class X509Certificate: @unchecked Sendable {
    /// The certificate's own DER bytes.
    let der: [UInt8]
    let pointer: OpaquePointer
    /// What a verdict reads of every certificate, read once at parsing (a parsed certificate
    /// is kept by ``DeviceAuthCache`` and judged again on every connection).
    private let facts: Facts

    private struct Facts {
        var subject: String
        var sha256: [UInt8]
        var keyHash: [UInt8]
        var audioOnlyPolicy: Bool?
        var notBefore: Int64?
        var notAfter: Int64?
    }

    /// Parses one DER certificate; the bytes must hold exactly one.
    init?(der: [UInt8]) {
        guard !der.isEmpty, der.count <= 64 * 1024, OpenSSLLibrary.isAvailable else { return nil }
        defer { ERR_clear_error() }
        var parsed: OpaquePointer?
        let consumed = der.withUnsafeBufferPointer { buffer -> Int in
            guard let base = buffer.baseAddress else { return -1 }
            var cursor: UnsafePointer<UInt8>? = base
            parsed = d2i_X509(nil, &cursor, buffer.count)
            guard let cursor else { return -1 }
            return cursor - base
        }
        guard let parsed else { return nil }
        guard consumed == der.count else {
            X509_free(parsed)
            return nil
        }
        self.der = der
        self.pointer = parsed
        facts = Self.facts(parsed, der: der)
    }

    /// Takes ownership of a certificate libcrypto made (freed with this object).
    init?(owning pointer: OpaquePointer) {
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509(pointer, &out)
        guard length > 0, let out else {
            X509_free(pointer)
            return nil
        }
        der = Array(UnsafeBufferPointer(start: out, count: Int(length)))
        CRYPTO_free(out, #fileID, #line)
        self.pointer = pointer
        facts = Self.facts(pointer, der: der)
    }

    private static func facts(_ pointer: OpaquePointer, der: [UInt8]) -> Facts {
        let policy: Bool?
        switch cast_x509_has_policy(pointer, CastPathValidator.audioOnlyPolicy) {
        case 1: policy = true
        case 0: policy = false
        default: policy = nil
        }
        return Facts(
            subject: text(X509_get_subject_name(pointer)), sha256: Digest.sha256(der),
            keyHash: Digest.sha256(subjectPublicKeyInfo(pointer)), audioOnlyPolicy: policy,
            notBefore: seconds(X509_get0_notBefore(pointer)), notAfter: seconds(X509_get0_notAfter(pointer)))
    }

    deinit { X509_free(pointer) }

    /// The certificate as PEM text.
    var pem: String {
        let base64 = Data(der).base64EncodedString()
        var lines = ["-----BEGIN CERTIFICATE-----"]
        var index = base64.startIndex
        while index < base64.endIndex {
            let end = base64.index(index, offsetBy: 64, limitedBy: base64.endIndex) ?? base64.endIndex
            lines.append(String(base64[index..<end]))
            index = end
        }
        lines.append("-----END CERTIFICATE-----")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The most certificates a PEM text may hold.
    static let maximumPEMCertificates = 64

    /// The certificates of a PEM text (`-----BEGIN CERTIFICATE-----` blocks), or DER bytes
    /// holding one certificate; nil when the bytes are neither, a block does not parse, or there
    /// are more than ``maximumPEMCertificates``.
    static func certificates(pemOrDER bytes: [UInt8]) -> [X509Certificate]? {
        let marker = Array("-----BEGIN CERTIFICATE-----".utf8)
        guard bytes.count >= marker.count, bytes.indices.contains(where: { bytes[$0...].starts(with: marker) }) else {
            return X509Certificate(der: bytes).map { [$0] }
        }
        guard bytes.count <= 1024 * 1024, OpenSSLLibrary.isAvailable else { return nil }
        ERR_clear_error()
        defer { ERR_clear_error() }
        // The memory BIO reads the array in place: every read happens inside this closure.
        let result = bytes.withUnsafeBytes { raw -> [X509Certificate]? in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            var result: [X509Certificate] = []
            while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
                defer { X509_free(certificate) }
                guard result.count < Self.maximumPEMCertificates else { return nil }
                var out: UnsafeMutablePointer<UInt8>?
                let length = i2d_X509(certificate, &out)
                guard length > 0, let out else { return nil }
                let der = Array(UnsafeBufferPointer(start: out, count: Int(length)))
                CRYPTO_free(out, #fileID, #line)
                guard let parsed = X509Certificate(der: der) else { return nil }
                result.append(parsed)
            }
            // The reader stops at the end of its input, or at a block that does not parse.
            return cast_pem_error_is_end() == 1 ? result : nil
        }
        guard let result, !result.isEmpty else { return nil }
        return result
    }

    /// The subject, one line in RFC 2253's order (`CN=…,OU=…,O=…`), UTF-8 kept.
    var subject: String { facts.subject }
    /// The issuer, as ``subject`` writes it.
    var issuer: String { Self.text(X509_get_issuer_name(pointer)) }

    /// Whether `other`'s subject is this certificate's issuer (names compared as X.509 does).
    func isIssued(byNameOf other: X509Certificate) -> Bool {
        X509_NAME_cmp(X509_get_issuer_name(pointer), X509_get_subject_name(other.pointer)) == 0
    }

    /// Whether the subject and the issuer are the same name.
    var isSelfIssued: Bool { isIssued(byNameOf: self) }

    /// The serial number's magnitude, big-endian, without leading zeros; nil when negative.
    var serialNumber: [UInt8]? {
        guard let serial = X509_get0_serialNumber(pointer), let number = ASN1_INTEGER_to_BN(serial, nil) else {
            return nil
        }
        defer { BN_free(number) }
        guard BN_is_negative(number) == 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int((BN_num_bits(number) + 7) / 8))
        _ = bytes.withUnsafeMutableBufferPointer { BN_bn2bin(number, $0.baseAddress) }
        return bytes
    }

    /// The serial number in hexadecimal, lower case (`00` for zero), as a report names it.
    var serialText: String {
        guard let serial = serialNumber else { return "negative" }
        return serial.isEmpty ? "00" : serial.hexText
    }

    /// The serial number as an unsigned 64-bit number, when it fits (revocation ranges use them).
    var serialUInt64: UInt64? {
        guard let serial = serialNumber, serial.count <= 8 else { return nil }
        return serial.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The start of the validity period, seconds since 1970 (UTC); nil when it cannot be read.
    var notBefore: Int64? { facts.notBefore }
    /// The end of the validity period, seconds since 1970 (UTC); nil when it cannot be read.
    var notAfter: Int64? { facts.notAfter }

    /// Why the certificate is not valid at `time` (seconds since 1970); nil when it is.
    func validityProblem(at time: Int64) -> ValidityProblem? {
        guard let notBefore, let notAfter else { return .unreadable }
        if time < notBefore { return .notYetValid(notBefore: CertificateTime.text(notBefore)) }
        if time > notAfter { return .expired(notAfter: CertificateTime.text(notAfter)) }
        return nil
    }

    /// Why a certificate is not valid at a time.
    enum ValidityProblem {
        case unreadable
        case notYetValid(notBefore: String)
        case expired(notAfter: String)
    }

    /// SHA-256 of the SubjectPublicKeyInfo (DER): what revocation lists name a key by.
    var keyHash: [UInt8] { facts.keyHash }

    /// The SubjectPublicKeyInfo, DER.
    private static func subjectPublicKeyInfo(_ pointer: OpaquePointer) -> [UInt8] {
        guard let key = X509_get_X509_PUBKEY(pointer) else { return [] }
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509_PUBKEY(key, &out)
        guard length > 0, let out else { return [] }
        defer { CRYPTO_free(out, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    /// The public key, owned by the certificate.
    var publicKey: OpaquePointer? { X509_get0_pubkey(pointer) }

    /// The RSA key's size in bits; nil when the key is not RSA.
    var rsaKeyBits: Int? {
        guard let key = publicKey, EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA else { return nil }
        return Int(EVP_PKEY_get_bits(key))
    }

    /// The extension flags OpenSSL computes on parsing (`EXFLAG_*`).
    private var extensionFlags: UInt32 { X509_get_extension_flags(pointer) }

    /// Whether basicConstraints says CA:TRUE.
    var isCertificateAuthority: Bool {
        let flags = extensionFlags
        return flags & UInt32(EXFLAG_BCONS) != 0 && flags & UInt32(EXFLAG_CA) != 0
    }

    /// basicConstraints' pathLenConstraint; nil when there is none.
    var pathLengthConstraint: Int? {
        let length = X509_get_pathlen(pointer)
        return length < 0 ? nil : Int(length)
    }

    /// The keyUsage bits (`KU_*`); nil when the certificate has no keyUsage extension.
    var keyUsage: UInt32? {
        guard extensionFlags & UInt32(EXFLAG_KUSAGE) != 0 else { return nil }
        return X509_get_key_usage(pointer)
    }

    /// Whether keyUsage allows signing data (digitalSignature).
    var allowsDigitalSignature: Bool { keyUsage.map { $0 & UInt32(KU_DIGITAL_SIGNATURE) != 0 } ?? false }
    /// Whether keyUsage allows signing certificates (keyCertSign).
    var allowsCertificateSigning: Bool { keyUsage.map { $0 & UInt32(KU_KEY_CERT_SIGN) != 0 } ?? false }

    /// Whether a critical extension is one OpenSSL does not know.
    var hasUnknownCriticalExtension: Bool { extensionFlags & UInt32(EXFLAG_CRITICAL) != 0 }
    /// Whether an extension OpenSSL knows cannot be read (or appears twice).
    var hasInvalidExtension: Bool { extensionFlags & UInt32(EXFLAG_INVALID) != 0 }

    /// The signature algorithm (an OpenSSL NID: `NID_sha256WithRSAEncryption` and so on).
    var signatureAlgorithm: Int32 { X509_get_signature_nid(pointer) }

    /// The signature algorithm's short name, as a report says it.
    var signatureAlgorithmName: String {
        guard let name = OBJ_nid2ln(signatureAlgorithm) else { return "unknown" }
        return String(cString: name)
    }

    /// Whether the algorithm outside the TBS is the one inside it (RFC 5280 section 4.1.1.2).
    var signatureAlgorithmsAgree: Bool {
        var signature: UnsafePointer<ASN1_BIT_STRING>?
        var outer: UnsafePointer<X509_ALGOR>?
        X509_get0_signature(&signature, &outer, pointer)
        guard let outer, let inner = X509_get0_tbs_sigalg(pointer) else { return false }
        return X509_ALGOR_cmp(outer, inner) == 0
    }

    /// Whether `issuer`'s key verifies this certificate's signature.
    func isSigned(by issuer: X509Certificate) -> Bool {
        guard let key = issuer.publicKey else { return false }
        defer { ERR_clear_error() }
        return X509_verify(pointer, key) == 1
    }

    /// Whether the certificatePolicies extension names Cast's audio-only policy; nil when it
    /// cannot be read.
    var hasAudioOnlyPolicy: Bool? { facts.audioOnlyPolicy }

    /// SHA-256 of the certificate's DER.
    var sha256: [UInt8] { facts.sha256 }

    private static func text(_ name: OpaquePointer?) -> String {
        guard let name, let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        guard cast_x509_name_print(bio, name) >= 0 else { return "" }
        var bytes = [UInt8](repeating: 0, count: min(Int(cast_bio_pending(bio)), 4096))
        let read = bytes.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32($0.count)) }
        return String(decoding: bytes.prefix(max(0, Int(read))), as: UTF8.self)
    }

    private static func seconds(_ time: UnsafePointer<ASN1_TIME>?) -> Int64? {
        var seconds: Int64 = 0
        guard cast_asn1_time_seconds(time, &seconds) == 1 else { return nil }
        return seconds
    }
}
