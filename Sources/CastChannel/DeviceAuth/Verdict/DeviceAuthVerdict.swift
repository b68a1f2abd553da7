import FoundationEssentials

/// Whether a receiver proved it holds a Cast device key, each check's outcome, and what the
/// certificates say: the device-authentication challenge Chrome and the Cast SDK run.
///
/// Genuine here means the receiver signed the challenge with a key whose certificate chains to
/// a trusted root. It catches a receiver that merely announces itself; it does not prove the
/// hardware, since keys taken from real devices pass.
public struct DeviceAuthVerdict: Sendable, Hashable, Codable {
    /// One check's outcome.
    public enum Outcome: String, Sendable, Hashable, Codable {
        /// The check ran and held.
        case passed
        /// The check ran and failed (the verdict's failures say why).
        case failed
        /// The check did not run: an earlier failure left nothing to check, or (for
        /// revocation) no revocation list was at hand.
        case notChecked
    }

    /// Each check's outcome, in the order they run.
    public struct Checks: Sendable, Hashable, Codable {
        /// The TLS certificate is valid now, for at most 4 days more.
        public var tlsCertificate: Outcome
        /// The device key signed the nonce and the TLS certificate.
        public var signature: Outcome
        /// The device certificate chains to a trusted root under Cast's rules.
        public var chain: Outcome
        /// No certificate of the path is on the revocation list.
        public var revocation: Outcome

        /// Outcomes.
        public init(tlsCertificate: Outcome, signature: Outcome, chain: Outcome, revocation: Outcome) {
            self.tlsCertificate = tlsCertificate
            self.signature = signature
            self.chain = chain
            self.revocation = revocation
        }

        /// No check ran.
        public static let none = Checks(
            tlsCertificate: .notChecked, signature: .notChecked, chain: .notChecked, revocation: .notChecked)
    }

    /// A certificate, as a verdict describes it.
    public struct Certificate: Sendable, Hashable, Codable {
        /// The subject (`CN=…,O=…`).
        public var subject: String
        /// The serial number in hexadecimal.
        public var serial: String
        /// The end of the validity period.
        public var notAfter: Date?
        /// SHA-256 of the DER, in hexadecimal.
        public var sha256: String

        /// A description.
        public init(subject: String, serial: String, notAfter: Date?, sha256: String) {
            self.subject = subject
            self.serial = serial
            self.notAfter = notAfter
            self.sha256 = sha256
        }
    }

    /// Where the revocation list that was checked came from.
    public enum RevocationSource: String, Sendable, Hashable, Codable {
        /// The receiver sent it in its response.
        case device
        /// The user gave it (`--cast-crl`).
        case file
        /// Both lists were checked.
        case deviceAndFile
    }

    /// True when every check that ran passed (revocation may be ``Outcome/notChecked``).
    public var authenticated: Bool
    /// The first check that failed, in the order of ``checks``; nil when authenticated.
    public var failure: DeviceAuthFailure? { failures.first }
    /// Every check that failed, in the order of ``checks``, each with its reason.
    public var failures: [DeviceAuthFailure]
    /// Each check's outcome.
    public var checks: Checks
    /// The subject of the root the chain reached, when it reached one.
    public var anchor: String?
    /// Which root that is: one of Google's, or one of your own (``CastTrustAnchor/Kind/custom``).
    public var anchorKind: CastTrustAnchor.Kind?
    /// Whether a certificate of the path carries Cast's audio-only policy (a speaker).
    public var audioOnly: Bool
    /// The device certificate, when it could be read.
    public var deviceCertificate: Certificate?
    /// The hash the receiver signed with: `sha1` or `sha256`.
    public var hashAlgorithm: String?
    /// Whether the response echoed the nonce sent (when the nonce sent is known, the same one).
    public var nonceEchoed: Bool
    /// Where the checked revocation list came from; nil when none was checked.
    public var revocationSource: RevocationSource?

    /// A verdict.
    public init(
        failures: [DeviceAuthFailure], checks: Checks, anchor: String? = nil, anchorKind: CastTrustAnchor.Kind? = nil,
        audioOnly: Bool = false, deviceCertificate: Certificate? = nil, hashAlgorithm: String? = nil,
        nonceEchoed: Bool = false, revocationSource: RevocationSource? = nil
    ) {
        self.authenticated = failures.isEmpty
        self.failures = failures
        self.checks = checks
        self.anchor = anchor
        self.anchorKind = anchorKind
        self.audioOnly = audioOnly
        self.deviceCertificate = deviceCertificate
        self.hashAlgorithm = hashAlgorithm
        self.nonceEchoed = nonceEchoed
        self.revocationSource = revocationSource
    }

    /// The verdict of a receiver that did not answer the challenge in time.
    public static func noResponse(_ message: String) -> DeviceAuthVerdict {
        DeviceAuthVerdict(failures: [DeviceAuthFailure(.noResponse, message)], checks: .none)
    }

    /// A short word for tables: `genuine`, `genuine, audio-only`, or the failure's code.
    public var summary: String {
        guard let failure else { return audioOnly ? "genuine, audio-only" : "genuine" }
        return failure.code.rawValue
    }
}
