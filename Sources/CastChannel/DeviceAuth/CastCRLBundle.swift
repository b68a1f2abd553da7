/// A Cast revocation list as a receiver sends it (`AuthResponse.crl`) or a user gives it: the
/// `CrlBundle` of Open Screen's `revocation.proto`, each ``CastCRL`` a signed ``CastTBSCRL``.
/// Decoding checks the shape and the bounds only; whether a list is signed under the Cast CRL
/// Root CA, and when it holds, is the verifier's to decide.
package struct CastCRLBundle: Hashable, Sendable {
    /// The largest bundle taken, in bytes (Google's own list is a few KiB).
    package static let maximumBytes = 256 * 1024
    /// The most lists in a bundle.
    package static let maximumCRLs = 16

    package var crls: [CastCRL]

    package init(crls: [CastCRL]) {
        self.crls = crls
    }
}

/// One signed list: the `TbsCrl` bytes as signed, the signer's certificate (DER) and the
/// signature (RSASSA-PKCS1-v1_5 SHA-256 over `tbsCRL`).
package struct CastCRL: Hashable, Sendable {
    package var tbsCRL: [UInt8]?
    package var signerCertificate: [UInt8]?
    package var signature: [UInt8]?

    package init(tbsCRL: [UInt8]? = nil, signerCertificate: [UInt8]? = nil, signature: [UInt8]? = nil) {
        self.tbsCRL = tbsCRL
        self.signerCertificate = signerCertificate
        self.signature = signature
    }
}

/// What a list revokes, and when it holds (seconds since 1970, UTC).
package struct CastTBSCRL: Hashable, Sendable {
    /// The most revoked key hashes, and the most serial ranges, in one list.
    package static let maximumEntries = 65_536

    /// The list's format; only version 0 is used.
    package var version: UInt64
    package var notBeforeSeconds: UInt64?
    package var notAfterSeconds: UInt64?
    /// SHA-256 hashes of revoked certificates' SubjectPublicKeyInfo (DER).
    package var revokedPublicKeyHashes: [[UInt8]]
    package var revokedSerialNumberRanges: [CastSerialNumberRange]

    package init(
        version: UInt64 = 0, notBeforeSeconds: UInt64? = nil, notAfterSeconds: UInt64? = nil,
        revokedPublicKeyHashes: [[UInt8]] = [], revokedSerialNumberRanges: [CastSerialNumberRange] = []
    ) {
        self.version = version
        self.notBeforeSeconds = notBeforeSeconds
        self.notAfterSeconds = notAfterSeconds
        self.revokedPublicKeyHashes = revokedPublicKeyHashes
        self.revokedSerialNumberRanges = revokedSerialNumberRanges
    }
}

/// Serial numbers revoked under one issuer, keyed by SHA-256 of the issuer's
/// SubjectPublicKeyInfo (DER).
package struct CastSerialNumberRange: Hashable, Sendable {
    package var issuerPublicKeyHash: [UInt8]?
    package var firstSerialNumber: UInt64?
    package var lastSerialNumber: UInt64?

    package init(issuerPublicKeyHash: [UInt8]? = nil, firstSerialNumber: UInt64? = nil, lastSerialNumber: UInt64? = nil)
    {
        self.issuerPublicKeyHash = issuerPublicKeyHash
        self.firstSerialNumber = firstSerialNumber
        self.lastSerialNumber = lastSerialNumber
    }
}
