/// A certificate a device chain or a revocation list may end at: one of Google's Cast roots,
/// or one of your own (a lab's or a development device's), never mistaken for Google's.
public struct CastTrustAnchor: Sendable {
    /// Which root an anchor is.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Google's Cast Root CA: the root of current device chains.
        case castRoot
        /// Google's Eureka Root CA: the root of the first devices' chains.
        case eurekaRoot
        /// Google's Cast CRL Root CA: the root revocation lists are signed under.
        case castCRLRoot
        /// An anchor given by the user (`--cast-root`); it vouches for device chains and
        /// revocation lists alike.
        case custom
    }

    /// Which root this is.
    public let kind: Kind
    let certificate: X509Certificate

    /// The anchor's subject, as a verdict names it (`CN=Cast Root CA,OU=Cast,…`).
    public var subject: String { certificate.subject }
    /// SHA-256 of the anchor's DER, in hexadecimal.
    public var sha256: String { certificate.sha256.hexText }
    /// Whether the anchor is one of Google's roots.
    public var isGoogleRoot: Bool { kind != .custom }

    init(kind: Kind, certificate: X509Certificate) {
        self.kind = kind
        self.certificate = certificate
    }

    /// Google's Cast Root CA; nil only when libcrypto cannot read the embedded certificate (the
    /// tests check it can).
    public static let castRoot = google(.castRoot, castRootPEM)
    /// Google's Eureka Root CA; nil only when libcrypto cannot read the embedded certificate.
    public static let eurekaRoot = google(.eurekaRoot, eurekaRootPEM)
    /// Google's Cast CRL Root CA; nil only when libcrypto cannot read the embedded certificate.
    public static let castCRLRoot = google(.castCRLRoot, castCRLRootPEM)

    /// The anchors of a PEM file's certificates (or of one DER certificate), each ``Kind/custom``.
    ///
    /// - Throws: ``CastChannelError`` of kind `.protocol` when the bytes hold no certificate.
    public static func custom(pemOrDER bytes: [UInt8]) throws(CastChannelError) -> [CastTrustAnchor] {
        guard let certificates = X509Certificate.certificates(pemOrDER: bytes) else {
            throw CastChannelError(.protocol, "no certificate in PEM or DER form")
        }
        return certificates.map { CastTrustAnchor(kind: .custom, certificate: $0) }
    }

    private static func google(_ kind: Kind, _ pem: String) -> CastTrustAnchor? {
        X509Certificate.certificates(pemOrDER: Array(pem.utf8))?.first.map {
            CastTrustAnchor(kind: kind, certificate: $0)
        }
    }
}

/// The anchors a verifier trusts: Google's three roots, and any of your own.
public struct CastTrustStore: Sendable {
    /// The anchors device chains may end at.
    public var deviceAnchors: [CastTrustAnchor]
    /// The anchors revocation lists may be signed under.
    public var crlAnchors: [CastTrustAnchor]

    /// Google's roots: Cast Root CA and Eureka Root CA for devices, Cast CRL Root CA for lists.
    public static var google: CastTrustStore {
        // A root libcrypto could not read trusts nothing: a chain to it is untrustedChain.
        CastTrustStore(
            deviceAnchors: [CastTrustAnchor.castRoot, CastTrustAnchor.eurekaRoot].compactMap { $0 },
            crlAnchors: [CastTrustAnchor.castCRLRoot].compactMap { $0 })
    }

    /// A store of the given anchors.
    public init(deviceAnchors: [CastTrustAnchor], crlAnchors: [CastTrustAnchor]) {
        self.deviceAnchors = deviceAnchors
        self.crlAnchors = crlAnchors
    }

    /// This store with `anchors` of your own added, for devices and lists alike.
    public func adding(_ anchors: [CastTrustAnchor]) -> CastTrustStore {
        CastTrustStore(deviceAnchors: deviceAnchors + anchors, crlAnchors: crlAnchors + anchors)
    }
}
