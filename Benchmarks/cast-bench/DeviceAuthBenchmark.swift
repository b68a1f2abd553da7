import CastChannel
import Foundation

/// `cast-bench auth FIXTURES-DIR [--seconds S]`: device-authentication verdicts a second on one
/// core, for the answer of Fixtures/deviceauth's genuine device (its certificate, an
/// intermediate, the lab root as the anchor) with a revocation list that verifies and revokes
/// nothing. Warm: one verifier judges the answer again and again, as on every connection of a
/// watched device: three RSA verifications a verdict (the signature and two certificates), the
/// certificates parsed and the list verified once. Cold: a new verifier for each verdict, so
/// every certificate is parsed and the list verified again (five RSA verifications). Prints
/// one JSON object.
enum DeviceAuthBenchmark {
    static func run(_ arguments: [String]) -> Never {
        var arguments = arguments
        var seconds = 3.0
        if let text = takeOption("--seconds", from: &arguments) {
            guard let value = Double(text), value > 0 else { fail("--seconds wants a positive number") }
            seconds = value
        }
        guard arguments.count == 1 else { fail("usage: cast-bench auth FIXTURES-DIR [--seconds S]") }
        let directory = URL(fileURLWithPath: arguments[0])
        func bytes(_ name: String) -> [UInt8] {
            guard let data = try? Data(contentsOf: directory.appendingPathComponent(name)) else {
                fail("cannot read \(name)")
            }
            return Array(data)
        }
        func der(_ name: String) -> [UInt8] {
            guard let der = DeviceAuthEvidence.certificateDER(pemOrDER: bytes("\(name).pem")) else {
                fail("\(name).pem")
            }
            return der
        }
        let response = DeviceAuthMessage(
            response: AuthResponse(
                signature: bytes("signature-tls-sha256.bin"), clientAuthCertificate: der("device"),
                intermediateCertificates: [der("ica")], senderNonce: bytes("nonce.bin"), hashAlgorithm: .sha256,
                crl: bytes("crl-revokes-other-serials.bin"))
        ).encoded()
        let anchors: [CastTrustAnchor]
        do {
            anchors = try CastTrustAnchor.custom(pemOrDER: bytes("root.pem") + bytes("crl-root.pem"))
        } catch {
            fail("the lab roots: \(error)")
        }
        let verifier = DeviceAuthVerifier(trustStore: .google.adding(anchors))
        let tls = der("tls"), nonce = bytes("nonce.bin")
        let time = Date(timeIntervalSince1970: 1_796_558_400)
        let first = verifier.verify(response: response, tlsCertificate: tls, nonceSent: nonce, at: time)
        guard first.authenticated, first.checks.revocation == .passed else { fail("the verdict is \(first.failures)") }
        let warm = rate(seconds: seconds) {
            verifier.verify(response: response, tlsCertificate: tls, nonceSent: nonce, at: time).authenticated
        }
        let cold = rate(seconds: seconds) {
            DeviceAuthVerifier(trustStore: .google.adding(anchors))
                .verify(response: response, tlsCertificate: tls, nonceSent: nonce, at: time).authenticated
        }
        print(
            #"{"warm":{"verdicts":\#(warm.verdicts),"seconds":\#(warm.seconds),"verdictsPerSecond":\#(warm.perSecond),"rsaVerificationsPerVerdict":3},"#
                + #""cold":{"verdicts":\#(cold.verdicts),"seconds":\#(cold.seconds),"verdictsPerSecond":\#(cold.perSecond),"rsaVerificationsPerVerdict":5}}"#
        )
        exit(0)
    }

    /// How many authenticated verdicts `verdict` gives a second, over `seconds`.
    static func rate(seconds: Double, _ verdict: () -> Bool) -> (verdicts: Int, seconds: Double, perSecond: Double) {
        let clock = ContinuousClock()
        let start = clock.now
        var verdicts = 0
        while true {
            for _ in 0..<50 where verdict() { verdicts += 1 }
            if clock.now - start >= .milliseconds(Int64(seconds * 1000)) { break }
        }
        let elapsed = clock.now - start
        let total = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return (verdicts, total, Double(verdicts) / total)
    }
}
