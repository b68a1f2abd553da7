import Foundation
import Testing

@testable import CastChannel

/// The verifier over the chains, signatures and lists of Fixtures/deviceauth (made by
/// Tests/Scripts/deviceauth-fixtures.sh with openssl): each Cast rule broken once, each check's
/// outcome, and agreement with `openssl verify -attime` but for the one documented difference.
@Suite("Device authentication: Cast's rules over certificates made by openssl")
struct DeviceAuthVerifierTests {
    typealias F = DeviceAuthFixtures

    /// A chain case: the device certificate, the intermediates sent, the root trusted, and what
    /// the chain check says (nil: it passes), with a word of the certificate it names.
    struct ChainCase: Sendable, CustomTestStringConvertible {
        var name: String
        var device: String
        var intermediates: [String]
        var root = "root"
        var expected: DeviceAuthFailure.Code?
        var names = ""
        var signature = "signature-tls-sha256"
        var testDescription: String { name }
    }

    static let chainCases: [ChainCase] = [
        ChainCase(name: "genuine", device: "device", intermediates: ["ica"], expected: nil),
        ChainCase(name: "audio-only", device: "device-audio", intermediates: ["ica-audio"], expected: nil),
        ChainCase(
            name: "device-no-keyusage", device: "device-no-keyusage", intermediates: ["ica"], expected: .certificate,
            names: "lab-device-no-keyusage"),
        ChainCase(
            name: "device-no-digitalsignature", device: "device-no-digitalsignature", intermediates: ["ica"],
            expected: .certificate,
            names: "lab-device-no-digitalsignature"),
        ChainCase(
            name: "device-1024", device: "device-1024", intermediates: ["ica"], expected: .certificate,
            names: "lab-device-1024",
            signature: "signature-tls-sha256-device-1024"),
        ChainCase(
            name: "device-ec", device: "device-ec", intermediates: ["ica"], expected: .certificate,
            names: "lab-device-ec",
            signature: "signature-tls-sha256-device-ec"),
        ChainCase(
            name: "device-pss", device: "device-pss", intermediates: ["ica"], expected: .certificate,
            names: "lab-device-pss"),
        ChainCase(
            name: "device-not-yet-valid", device: "device-not-yet-valid", intermediates: ["ica"], expected: .expired,
            names: "not-yet-valid"),
        ChainCase(
            name: "device-expired", device: "device-expired", intermediates: ["ica"], expected: .expired,
            names: "lab-device-expired"),
        ChainCase(
            name: "ica-not-ca", device: "device-under-ica-not-ca", intermediates: ["ica-not-ca"],
            expected: .certificate, names: "ICA not_ca"),
        ChainCase(
            name: "ica-no-certsign", device: "device-under-ica-no-certsign", intermediates: ["ica-no-certsign"],
            expected: .certificate,
            names: "ICA no_certsign"),
        ChainCase(
            name: "ica-unknown-critical", device: "device-under-ica-unknown-critical",
            intermediates: ["ica-unknown-critical"],
            expected: .certificate, names: "ICA unknown_critical"),
        ChainCase(
            name: "ica-expired", device: "device-under-ica-expired", intermediates: ["ica-expired"], expected: .expired,
            names: "Cast Lab ICA 3"),
        ChainCase(
            name: "pathlen", device: "device-under-ica-below", intermediates: ["ica-below", "ica"],
            expected: .certificate, names: "CN=Cast Lab ICA,"),
        ChainCase(
            name: "root-expired", device: "device-under-old-root", intermediates: ["ica-old"], root: "root-expired",
            expected: nil),
        ChainCase(
            name: "untrusted", device: "device-under-stranger", intermediates: ["stranger-root"],
            expected: .untrustedChain),
        ChainCase(
            name: "fake-cast-root", device: "device-under-fake-cast-root", intermediates: ["fake-cast-root"],
            expected: .untrustedChain),
    ]

    static func chainVerdict(_ chainCase: ChainCase) throws -> DeviceAuthVerdict {
        try F.verdict(
            F.response(
                device: chainCase.device, intermediates: chainCase.intermediates, signature: chainCase.signature),
            store: F.labStore(root: chainCase.root))
    }

    @Test("each chain case gives its chain verdict, naming the certificate that breaks the rule", arguments: chainCases)
    func chain(_ chainCase: ChainCase) throws {
        let verdict = try Self.chainVerdict(chainCase)
        let chainCodes: Set<DeviceAuthFailure.Code> = [.untrustedChain, .certificate, .expired]
        let failure = verdict.failures.first { chainCodes.contains($0.code) }
        #expect(failure?.code == chainCase.expected, "\(verdict.failures)")
        #expect(verdict.checks.chain == (chainCase.expected == nil ? .passed : .failed))
        if chainCase.expected != nil, !chainCase.names.isEmpty {
            #expect(failure?.message.contains(chainCase.names) == true, "\(failure?.message ?? "")")
        }
        if chainCase.expected == nil {
            #expect(verdict.authenticated, "\(verdict.failures)")
            #expect(verdict.anchorKind == .custom)
        } else {
            #expect(!verdict.authenticated)
        }
    }

    @Test("openssl verify -attime agrees on every chain but where Cast checks more, and the anchor's own expiry")
    func agreesWithOpenSSL() throws {
        let text = String(decoding: try F.bytes("openssl-verify.txt"), as: UTF8.self)
        let openssl = Dictionary(
            uniqueKeysWithValues: text.split(separator: "\n").map { line in
                let parts = line.split(separator: "\t", maxSplits: 1)
                return (String(parts[0]), parts.count > 1 && parts[1] == "OK")
            })
        #expect(Set(openssl.keys) == Set(Self.chainCases.map(\.name)))
        var castStricter: Set<String> = []
        var anchorExpiry: Set<String> = []
        for chainCase in Self.chainCases {
            let cast = try Self.chainVerdict(chainCase).checks.chain == .passed
            guard let openSSLPasses = openssl[chainCase.name] else { continue }
            if openSSLPasses, !cast { castStricter.insert(chainCase.name) }
            if !openSSLPasses, cast { anchorExpiry.insert(chainCase.name) }
        }
        // Cast's own rules, which openssl verify does not know: the device certificate's
        // keyUsage, an RSA key, RSA PKCS#1 v1.5 certificate signatures.
        #expect(castStricter == ["device-no-keyusage", "device-no-digitalsignature", "device-ec", "device-pss"])
        // The one documented difference: Cast does not check the anchor's own validity period.
        #expect(anchorExpiry == ["root-expired"])
    }

    @Test("a genuine answer: every check passes, and the verdict says what the certificates say")
    func genuine() throws {
        let verdict = try F.verdict(F.response())
        #expect(verdict.authenticated)
        #expect(
            verdict.checks
                == .init(tlsCertificate: .passed, signature: .passed, chain: .passed, revocation: .notChecked))
        #expect(verdict.anchor == "CN=Cast Lab Root CA,O=Cast Lab")
        #expect(verdict.anchorKind == .custom)
        #expect(!verdict.audioOnly)
        #expect(verdict.hashAlgorithm == "sha256")
        #expect(verdict.nonceEchoed)
        #expect(verdict.revocationSource == nil)
        #expect(verdict.deviceCertificate?.subject == "CN=lab-device-0001,O=Cast Lab")
        #expect(verdict.deviceCertificate?.serial == "1001")
        #expect(verdict.deviceCertificate?.sha256.count == 64)
        #expect(verdict.summary == "genuine")
        #expect(
            try F.verdict(F.response(device: "device-audio", intermediates: ["ica-audio"])).summary
                == "genuine, audio-only")
    }

    @Test("the same answer without the lab's root is untrusted: Google's roots do not vouch for it")
    func withoutTheLabRoot() throws {
        let verdict = try F.verdict(F.response(), store: .google)
        #expect(verdict.failure?.code == .untrustedChain)
        #expect(verdict.checks.signature == .passed)
        #expect(verdict.anchor == nil)
        #expect(!verdict.authenticated)
    }

    @Test("a chain to a root that takes Cast Root CA's name, the root sent along, is untrusted")
    func impostorRoot() throws {
        let payload = try F.response(device: "device-under-fake-cast-root", intermediates: ["fake-cast-root"])
        for store in [CastTrustStore.google, try F.labStore()] {
            let verdict = try F.verdict(payload, store: store)
            #expect(verdict.failure?.code == .untrustedChain)
            #expect(!verdict.authenticated)
        }
    }

    @Test(
        "TLS certificates: valid for more than 4 days, expired, not yet valid",
        arguments: ["tls-long", "tls-expired", "tls-not-yet-valid"])
    func tlsCertificate(_ tls: String) throws {
        let verdict = try F.verdict(F.response(signature: "signature-\(tls)-sha256"), tls: tls)
        #expect(verdict.failure?.code == .tlsCertificate)
        #expect(
            verdict.checks
                == .init(tlsCertificate: .failed, signature: .passed, chain: .passed, revocation: .notChecked))
    }

    @Test("signatures: another key, SHA-1 said as SHA-256, empty, PSS, all fail; SHA-1 as SHA-1 passes")
    func signatures() throws {
        #expect(try F.verdict(F.response(signature: "signature-tls-sha256-wrong-key")).failure?.code == .signature)
        #expect(try F.verdict(F.response(signature: "signature-tls-sha1")).failure?.code == .signature)
        let sha1 = try F.verdict(F.response(signature: "signature-tls-sha1", hash: .sha1))
        #expect(sha1.authenticated)
        #expect(sha1.hashAlgorithm == "sha1")
        #expect(try F.verdict(F.response(signatureAlgorithm: .rsassaPSS)).failure?.code == .signature)
        var message = try DeviceAuthMessage(decoding: F.response())
        message.response?.signature = []
        #expect(try F.verdict(message.encoded()).failure?.code == .signature)
        // Signed over another TLS certificate: the one presented is not the one signed.
        #expect(try F.verdict(F.response(signature: "signature-tls-long-sha256")).failure?.code == .signature)
    }

    @Test(
        "the nonce: without an echo the signature covers the TLS certificate alone; a wrong echo is said, not enforced")
    func nonce() throws {
        let none = try F.verdict(F.response(signature: "signature-tls-sha256-no-nonce", echoNonce: false))
        #expect(none.authenticated)
        #expect(!none.nonceEchoed)
        let verifier = DeviceAuthVerifier(trustStore: try F.labStore())
        let other = verifier.verify(
            response: try F.response(), tlsCertificate: try F.der("tls"), nonceSent: [9, 9], at: F.time)
        #expect(other.authenticated)
        #expect(!other.nonceEchoed)
        let unknown = verifier.verify(
            response: try F.response(), tlsCertificate: try F.der("tls"), nonceSent: nil, at: F.time)
        #expect(unknown.nonceEchoed)
    }

    @Test(
        "what is not an answer: an AuthError, bytes that are not a message, certificates that are not DER or too many")
    func notAnAnswer() throws {
        #expect(try F.verdict(DeviceAuthMessage(error: .noTLS).encoded()).failure?.code == .authError)
        #expect(try F.verdict(DeviceAuthMessage(error: .noTLS).encoded()).failure?.message.contains("NO_TLS") == true)
        #expect(try F.verdict([0xff, 0xff]).failure?.code == .malformed)
        #expect(try F.verdict(DeviceAuthMessage().encoded()).failure?.code == .malformed)
        var message = try DeviceAuthMessage(decoding: F.response())
        message.response?.clientAuthCertificate = Array(repeating: 0x30, count: 100)
        #expect(try F.verdict(message.encoded()).failure?.code == .malformed)
        message = try DeviceAuthMessage(decoding: F.response())
        message.response?.intermediateCertificates = Array(repeating: [0x30, 0x03, 0x02, 0x01, 0x01], count: 200)
        #expect(try F.verdict(message.encoded()).failure?.code == .malformed)
        message = try DeviceAuthMessage(decoding: F.response())
        message.response?.intermediateCertificates = [Array(repeating: 0x41, count: 60 * 1024)]
        #expect(try F.verdict(message.encoded()).failure?.code == .malformed)
        message = try DeviceAuthMessage(decoding: F.response())
        message.response?.intermediateCertificates = [[0x30, 0x03, 0x02, 0x01, 0x01]]
        let verdict = try F.verdict(message.encoded())
        #expect(verdict.failure?.code == .malformed)
        #expect(verdict.deviceCertificate?.serial == "1001")
    }

    @Test("a path search over self-issued certificates that repeat is bounded, and says it gave up")
    func boundedSearch() throws {
        let payload = try F.response(
            device: "device-under-stranger", intermediates: Array(repeating: "stranger-root", count: 16))
        let verdict = try F.verdict(payload)
        #expect(verdict.failure?.code == .untrustedChain)
        #expect(verdict.failure?.message.contains("gave up after \(CastPathValidator.maximumSignatureChecks)") == true)
    }

    /// A revocation case: the list (sent by the device, or given), the outcome and failure.
    struct RevocationCase: Sendable, CustomTestStringConvertible {
        var crl: String
        var expected: DeviceAuthFailure.Code?
        var names = ""
        var testDescription: String { crl }
    }

    static let revocationCases: [RevocationCase] = [
        RevocationCase(crl: "empty", expected: nil),
        RevocationCase(crl: "revokes-other-serials", expected: nil),
        RevocationCase(
            crl: "revokes-device-key", expected: .revoked, names: "CN=lab-device-0001,O=Cast Lab is revoked by its key"),
        RevocationCase(
            crl: "revokes-ica-key", expected: .revoked, names: "CN=Cast Lab ICA,O=Cast Lab is revoked by its key"),
        RevocationCase(crl: "revokes-device-serial", expected: .revoked, names: "revoked by its serial number 1001"),
        RevocationCase(crl: "bad-signature", expected: .crl, names: "signature"),
        RevocationCase(crl: "not-yet-valid", expected: .crl, names: "not at the time"),
        RevocationCase(crl: "expired", expected: .crl, names: "not at the time"),
        RevocationCase(crl: "signer-not-under-crl-root", expected: .crl, names: "not issued by a CRL root"),
        RevocationCase(crl: "range-backwards", expected: .crl, names: "ends before it starts"),
    ]

    @Test("revocation from the list the device sends", arguments: revocationCases)
    func revocationSent(_ revocationCase: RevocationCase) throws {
        let verdict = try F.verdict(F.response(crl: revocationCase.crl))
        #expect(verdict.failure?.code == revocationCase.expected, "\(verdict.failures)")
        #expect(verdict.checks.revocation == (revocationCase.expected == nil ? .passed : .failed))
        #expect(verdict.failure?.message.contains(revocationCase.names) ?? true, "\(verdict.failure?.message ?? "")")
        #expect(verdict.revocationSource == .device)
    }

    @Test("revocation from a list given (--cast-crl), and from both", arguments: revocationCases)
    func revocationGiven(_ revocationCase: RevocationCase) throws {
        let given = try F.verdict(F.response(), crl: revocationCase.crl)
        #expect(given.failure?.code == revocationCase.expected)
        #expect(given.revocationSource == .file)
        let both = try F.verdict(F.response(crl: "empty"), crl: revocationCase.crl)
        #expect(both.failure?.code == revocationCase.expected)
        #expect(both.revocationSource == .deviceAndFile)
    }

    @Test("an empty list field is no list; an error beside a response is a refusal; every list given is checked")
    func listsAndErrors() throws {
        var message = try DeviceAuthMessage(decoding: F.response())
        message.response?.crl = []
        let empty = try F.verdict(message.encoded())
        #expect(empty.authenticated && empty.checks.revocation == .notChecked && empty.revocationSource == nil)
        message.error = .internalError
        #expect(try F.verdict(message.encoded()).failure?.code == .authError)
        // The device's list does not verify and the given one revokes: both are said.
        let both = try F.verdict(F.response(crl: "bad-signature"), crl: "revokes-device-key")
        #expect(both.failures.map(\.code) == [.crl, .revoked])
        #expect(both.revocationSource == .deviceAndFile)
    }

    @Test("a list whose CRL root is not trusted is refused, though the device's root is")
    func listUnderAnUntrustedRoot() throws {
        let verdict = try F.verdict(
            F.response(crl: "empty"), store: .google.adding(try CastTrustAnchor.custom(pemOrDER: F.bytes("root.pem"))))
        #expect(verdict.failure?.code == .crl)
    }

    @Test("Google's embedded roots: their subjects, their SHA-256 as published, CA and pathlen as issued")
    func googleRoots() throws {
        let castRoot = try #require(CastTrustAnchor.castRoot)
        let eurekaRoot = try #require(CastTrustAnchor.eurekaRoot)
        let crlRoot = try #require(CastTrustAnchor.castCRLRoot)
        #expect(castRoot.subject.hasPrefix("CN=Cast Root CA,OU=Cast,O=Google Inc"))
        #expect(castRoot.sha256.hasPrefix("809af147"))
        #expect(castRoot.sha256.hasSuffix("d6ca"))
        #expect(eurekaRoot.subject.hasPrefix("CN=Eureka Root CA,OU=Google TV"))
        #expect(eurekaRoot.sha256.hasPrefix("caf6d1e3"))
        #expect(crlRoot.subject.hasPrefix("CN=Cast CRL Root CA,OU=Cast"))
        #expect(crlRoot.sha256.hasPrefix("8b77c602"))
        #expect(castRoot.certificate.pathLengthConstraint == 2)
        #expect(eurekaRoot.certificate.pathLengthConstraint == nil)
        #expect(crlRoot.certificate.pathLengthConstraint == 1)
        #expect(
            [castRoot, eurekaRoot, crlRoot].allSatisfy { $0.certificate.isCertificateAuthority && $0.isGoogleRoot })
        #expect(CastTrustStore.google.deviceAnchors.map(\.kind) == [.castRoot, .eurekaRoot])
    }

    @Test("anchors of your own: PEM with several certificates, DER, and what is neither")
    func customAnchors() throws {
        let two = try F.bytes("root.pem") + F.bytes("crl-root.pem")
        #expect(try CastTrustAnchor.custom(pemOrDER: two).map(\.kind) == [.custom, .custom])
        #expect(try CastTrustAnchor.custom(pemOrDER: F.der("root")).first?.subject == "CN=Cast Lab Root CA,O=Cast Lab")
        #expect(throws: CastChannelError.self) { try CastTrustAnchor.custom(pemOrDER: Array("not a certificate".utf8)) }
        #expect(throws: CastChannelError.self) {
            try CastTrustAnchor.custom(
                pemOrDER: Array("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8))
        }
    }
}

/// The verifier's cache: bounded by count and by bytes, the oldest first out.
@Suite("Device authentication's cache")
struct DeviceAuthCacheTests {
    @Test("certificates past the count or the bytes push the oldest out; a parsed one is the same object again")
    func bounded() throws {
        let names = ["device", "ica", "root", "crl-root", "tls", "ica-audio"]
        let ders = try names.map(DeviceAuthFixtures.der)
        let byCount = DeviceAuthCache(certificates: 3)
        for der in ders { #expect(byCount.certificate(der: der) != nil) }
        #expect(byCount.certificateCount.count == 3)
        let kept = try #require(byCount.certificate(der: ders[5]))
        #expect(byCount.certificate(der: ders[5]) === kept)
        let budget = ders[0].count + ders[1].count
        let byBytes = DeviceAuthCache(certificateBytes: budget)
        for der in ders.prefix(3) { _ = byBytes.certificate(der: der) }
        #expect(byBytes.certificateCount.bytes <= budget)
        #expect(byBytes.certificateCount.count < 3)
        #expect(byBytes.certificate(der: [0x30, 0x00]) == nil)
        #expect(byBytes.certificateCount.bytes <= budget)
    }
}
