import CastChannel
import FoundationEssentials

/// A receiver's device-authentication verdict in JSON (`auth`): whether it is genuine, the
/// failure's code as a value, each check's outcome, the anchor and the device certificate.
struct DeviceAuthReport: Encodable, Sendable {
    var authenticated: Bool
    /// The first failure's code (`untrustedChain`, `expired`, ...); nil when authenticated.
    var failure: String?
    /// What failed, in a sentence.
    var reason: String?
    /// The subject of the certificate the first failure concerns.
    var certificate: String?
    /// Every failure, in the order of the checks.
    var failures: [DeviceAuthFailure]
    var checks: DeviceAuthVerdict.Checks
    var anchor: String?
    /// `castRoot`, `eurekaRoot` or `custom` (a root given with --cast-root).
    var anchorKind: String?
    var audioOnly: Bool
    var deviceCertificate: DeviceAuthVerdict.Certificate?
    var hashAlgorithm: String?
    var nonceEchoed: Bool
    var revocationSource: String?
    /// The receiver this one pretends to be: another listed receiver with its friendly name
    /// that passed.
    var impostorOf: DeviceImpostor?
    /// The files `--save-auth` wrote.
    var saved: SavedFiles?

    struct SavedFiles: Encodable, Sendable {
        var response: String?
        var tlsCertificate: String
    }

    /// `genuine`, `genuine, audio-only`, or the failure with its reason, and whom it pretends
    /// to be.
    var summary: String {
        var text: String
        if let failure {
            text = "\(failure): \(reason ?? "")"
        } else {
            text = audioOnly ? "genuine, audio-only" : "genuine"
            if anchorKind == CastTrustAnchor.Kind.custom.rawValue, let anchor {
                text += " (a root of your own: \(DeviceAuthText.commonName(anchor)))"
            }
        }
        if let impostorOf { text += "; an impostor of \(impostorOf.friendlyName)" }
        return text
    }

    init(_ verdict: DeviceAuthVerdict, impostorOf: DeviceImpostor? = nil, saved: SavedFiles? = nil) {
        authenticated = verdict.authenticated
        failure = verdict.failure?.code.rawValue
        reason = verdict.failure?.message
        certificate = verdict.failure?.certificate
        failures = verdict.failures
        checks = verdict.checks
        anchor = verdict.anchor
        anchorKind = verdict.anchorKind?.rawValue
        audioOnly = verdict.audioOnly
        deviceCertificate = verdict.deviceCertificate
        hashAlgorithm = verdict.hashAlgorithm
        nonceEchoed = verdict.nonceEchoed
        revocationSource = verdict.revocationSource?.rawValue
        self.impostorOf = impostorOf
        self.saved = saved
    }
}

/// A verdict in words, for the text outputs.
enum DeviceAuthText {
    /// The AUTH column: `genuine`, `genuine, audio-only`, the failure's code, and
    /// `impostor: ` before it when the device pretends to be another listed one.
    static func column(_ verdict: DeviceAuthVerdict?, impostor: Bool = false) -> String {
        guard let verdict else { return "-" }
        return impostor ? "impostor: \(verdict.summary)" : verdict.summary
    }

    /// One line for a receiver: `genuine Cast device (Cast Root CA)`, or why it is not.
    static func sentence(_ verdict: DeviceAuthVerdict, impostorOf: String? = nil) -> String {
        var text: String
        if let failure = verdict.failure {
            text = "not authenticated: \(failure.code.rawValue): \(failure.message)"
        } else {
            let anchor = verdict.anchor.map(commonName) ?? "?"
            let own = verdict.anchorKind == .custom ? ", a root of your own, not Google's" : ""
            text = "genuine Cast device\(verdict.audioOnly ? ", audio-only" : "") (chains to \(anchor)\(own))"
            if verdict.checks.revocation == .notChecked { text += "; revocation not checked (no list)" }
        }
        if let impostorOf { text += "; an impostor of \(impostorOf)" }
        return text
    }

    /// The CN of an RFC 2253 subject, or the subject when it has none.
    static func commonName(_ subject: String) -> String {
        guard subject.hasPrefix("CN=") else { return subject }
        var name = ""
        var escaped = false
        for character in subject.dropFirst(3) {
            if escaped {
                name.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "," {
                break
            } else {
                name.append(character)
            }
        }
        return name
    }
}
