import CastChannel
import CastDiscovery
import CastTestSupport
import Foundation
import Testing

/// A simulated receiver with a ``DeviceAuthAuthority`` of its own, asked by the probe on
/// loopback: the answer it signs is what the verifier accepts with its root, and refuses
/// without.
@Suite("Device authentication between publish's receivers and the probe")
struct DeviceAuthRoundTripTests {
    /// The time of the test: the authority's certificates and the check share it.
    static let time = Date(timeIntervalSince1970: 1_796_558_400)

    @Test("genuine with the authority's root, audio-only for a speaker, untrustedChain without the root")
    func genuine() async throws {
        let authority = try DeviceAuthAuthority(at: Self.time)
        let server = try ReceiverChannelServer(
            certificate: try authority.tlsCertificate(commonName: "sim"), handshakeTimeout: .seconds(600))
        defer { server.stop() }
        let screen = try server.listen(
            receiver: 0, addresses: ["127.0.0.1"], port: 0, status: "{}",
            identity: try authority.identity(commonName: "Living Room TV", audioOnly: false))
        let speaker = try server.listen(
            receiver: 1, addresses: ["127.0.0.1"], port: 0, status: "{}",
            identity: try authority.identity(commonName: "Kitchen speaker", audioOnly: true))
        try server.start()
        let trusted = DeviceAuthVerifier(
            trustStore: .google.adding(try CastTrustAnchor.custom(pemOrDER: Array(authority.rootPEM.utf8))))

        let probed = await ReceiverProbe.probe(host: "127.0.0.1", port: screen, timeout: .seconds(30))
        #expect(probed.isReachable, "\(probed)")
        let evidence = try #require(probed.deviceAuth)
        #expect(evidence.nonce?.count == 16)
        let verdict = evidence.verdict(by: trusted, at: Self.time)
        #expect(verdict.authenticated, "\(verdict.failures)")
        #expect(verdict.anchorKind == .custom)
        #expect(verdict.anchor == "CN=\(DeviceAuthAuthority.rootName),O=cast-scan")
        #expect(verdict.deviceCertificate?.subject == "CN=Living Room TV,O=cast-scan")
        #expect(!verdict.audioOnly)
        #expect(verdict.nonceEchoed && verdict.hashAlgorithm == "sha256")
        #expect(evidence.verdict(by: DeviceAuthVerifier(), at: Self.time).failure?.code == .untrustedChain)
        // The TLS certificate is valid for 2 days: past them it fails, and the chain still holds.
        let late = evidence.verdict(by: trusted, at: Self.time.addingTimeInterval(3 * 86_400))
        #expect(late.failure?.code == .tlsCertificate && late.checks.chain == .passed)

        let audio = await ReceiverProbe.probe(host: "127.0.0.1", port: speaker, timeout: .seconds(30))
        let audioVerdict = try #require(audio.deviceAuth).verdict(by: trusted, at: Self.time)
        #expect(audioVerdict.authenticated && audioVerdict.audioOnly, "\(audioVerdict.failures)")
        #expect(audioVerdict.summary == "genuine, audio-only")
    }

    @Test("not asked: no challenge, no evidence; a receiver without an identity answers an AuthError")
    func notAskedAndNoIdentity() async throws {
        let server = try ReceiverChannelServer(
            certificate: try TLSCertificate(commonName: "sim"), handshakeTimeout: .seconds(600))
        defer { server.stop() }
        let port = try server.listen(receiver: 0, addresses: ["127.0.0.1"], port: 0, status: "{}")
        try server.start()
        let unasked = await ReceiverProbe.probe(
            host: "127.0.0.1", port: port, timeout: .seconds(30), authenticate: false)
        #expect(unasked.isReachable && unasked.deviceAuth == nil)
        let asked = await ReceiverProbe.probe(host: "127.0.0.1", port: port, timeout: .seconds(30))
        let verdict = try #require(asked.deviceAuth).verdict(by: DeviceAuthVerifier(), at: Self.time)
        #expect(verdict.failure?.code == .authError)
        #expect(verdict.failure?.message.contains("INTERNAL_ERROR") == true)
    }

    @Test("a monitor that authenticates reports each new channel's answer once, as an event and in the states")
    func monitor() async throws {
        let authority = try DeviceAuthAuthority(at: Self.time)
        let server = try ReceiverChannelServer(
            certificate: try authority.tlsCertificate(commonName: "sim"), handshakeTimeout: .seconds(600))
        defer { server.stop() }
        let port = try server.listen(
            receiver: 0, addresses: ["127.0.0.1"], port: 0, status: "{}",
            identity: try authority.identity(commonName: "Kept TV", audioOnly: false))
        try server.start()
        let monitor = try ReceiverMonitor(states: ReceiverStates(), configuration: .init(authenticates: true))
        defer { monitor.stop() }
        try monitor.start()
        let device = try CastDevice(
            service: ResolvedService(
                instanceName: "Kept", hostName: "kept.local", port: port,
                addresses: [try #require(ServiceAddress("127.0.0.1"))], txt: ["id=71", "fn=Kept TV", "ve=05", "ca=5"]))
        monitor.watch(device)
        #expect(
            await Eventually.wait(timeout: .seconds(60)) {
                monitor.states.entry(for: device.uniqueID)?.result.deviceAuth != nil
            })
        let evidence = monitor.states.entry(for: device.uniqueID)?.result.deviceAuth
        let trusted = DeviceAuthVerifier(
            trustStore: .google.adding(try CastTrustAnchor.custom(pemOrDER: Array(authority.rootPEM.utf8))))
        let verdict = try #require(evidence).verdict(by: trusted, at: Self.time)
        #expect(verdict.authenticated, "\(verdict.failures)")
        // The event says it too.
        var reported: DeviceAuthEvidence?
        for await event in monitor.events {
            if case .deviceAuth(let id, let result) = event, id == device.uniqueID {
                reported = result.deviceAuth
                break
            }
        }
        #expect(reported == evidence)
    }
}
