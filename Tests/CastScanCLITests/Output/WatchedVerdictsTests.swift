import CastChannel
import CastDiscovery
import Testing

@testable import CastScanCLI

/// What `watch --status` and `serve --status` say of each device's verdict: only changes, and
/// an impostor named again when the genuine device's verdict comes after its own.
@Suite("Watched verdicts")
struct WatchedVerdictsTests {
    static let genuine = DeviceAuthVerdict(
        failures: [],
        checks: .init(tlsCertificate: .passed, signature: .passed, chain: .passed, revocation: .notChecked))
    static let untrusted = DeviceAuthVerdict(
        failures: [DeviceAuthFailure(.untrustedChain, "no path")],
        checks: .init(tlsCertificate: .passed, signature: .passed, chain: .failed, revocation: .notChecked))

    @Test("said once per change; the impostor said again, named, when the genuine one passes after it")
    func changes() {
        let real = FleetTests.device(1, name: "Lobby"), fake = FleetTests.device(2, name: "Lobby")
        let devices = [real.uniqueID: real, fake.uniqueID: fake]
        var watched = WatchedVerdicts()
        let first = watched.update(fake.uniqueID, Self.untrusted, devices: { devices[$0] })
        #expect(first.map(\.id) == [fake.uniqueID] && first[0].report.impostorOf == nil)
        // The same verdict on a new connection: nothing to say.
        #expect(watched.update(fake.uniqueID, Self.untrusted, devices: { devices[$0] }).isEmpty)
        let second = watched.update(real.uniqueID, Self.genuine, devices: { devices[$0] })
        #expect(second.map(\.id) == [real.uniqueID, fake.uniqueID])
        #expect(second[1].report.impostorOf?.uniqueID == real.uniqueID)
        #expect(second[1].report.summary == "untrustedChain: no path; an impostor of Lobby")
        #expect(second[0].report.summary == "genuine")
    }
}
