import CastChannel
import CastDiscovery
import Testing

/// Impostors: a failing device beside a passing one with its friendly name.
@Suite("Device impostors")
struct DeviceImpostorTests {
    static func device(_ instance: String, id: String, name: String) throws -> CastDevice {
        try CastDevice(
            service: ResolvedService(
                instanceName: instance, hostName: "\(instance).local", port: 8009,
                addresses: [try #require(ServiceAddress("10.0.0.1"))], txt: ["id=\(id)", "fn=\(name)", "ve=05", "ca=5"])
        )
    }

    @Test("by friendly name and by Cast id; a passing device, an unknown verdict and a lone failure are none")
    func find() throws {
        let genuine = try Self.device("a", id: "aa", name: "Conference Room TV")
        let byName = try Self.device("b", id: "bb", name: "Conference Room TV")
        let lonely = try Self.device("c", id: "cc", name: "Lobby")
        let unknown = try Self.device("d", id: "dd", name: "Conference Room TV")
        let verdicts = [genuine.uniqueID: true, byName.uniqueID: false, lonely.uniqueID: false]
        let found = DeviceImpostor.find(in: [byName, genuine, lonely, unknown]) { verdicts[$0.uniqueID] }
        #expect(
            found == [byName.uniqueID: DeviceImpostor(uniqueID: genuine.uniqueID, friendlyName: "Conference Room TV")])
        // Nobody passed: nobody is an impostor. The same Cast id is one device, not two.
        #expect(try Self.device("e", id: "aa", name: "Other").uniqueID == genuine.uniqueID)
        #expect(DeviceImpostor.find(in: [genuine, byName]) { _ in false }.isEmpty)
    }
}
