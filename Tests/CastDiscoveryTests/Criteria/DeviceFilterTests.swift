import CastDiscovery
import Testing

@Suite("DeviceFilter")
struct DeviceFilterTests {
    static let eth0v4 = ServiceAddress("10.0.0.1", interfaceName: "eth0", interfaceIndex: 2)!
    static let eth0v6 = ServiceAddress("fd00::1", interfaceName: "eth0", interfaceIndex: 2)!
    static let eth1v4 = ServiceAddress("10.1.0.1", interfaceName: "eth1", interfaceIndex: 3)!
    static let unknownInterface = ServiceAddress("192.0.2.9")!

    static func device(_ addresses: [ServiceAddress]) throws -> CastDevice {
        let txt = TXTRecord(strings: ["id=406c2bcdd5995755059b5bb045326056", "fn=TV"].map { Array($0.utf8) })
        return try CastDevice(
            service: ResolvedService(
                instanceName: "Chromecast-406c2bcdd5995755059b5bb045326056", hostName: "h.local", port: 8009,
                addresses: addresses, txt: txt))
    }

    @Test("none keeps every device as it is, even one without an address")
    func none() throws {
        #expect(DeviceFilter.none.keepsEverything)
        let bare = try Self.device([])
        #expect(DeviceFilter.none.apply(to: bare) == bare)
    }

    @Test("families and interface select addresses; a device with none left is dropped")
    func selects() throws {
        let device = try Self.device([Self.eth0v4, Self.eth0v6, Self.eth1v4, Self.unknownInterface])
        #expect(
            DeviceFilter(families: [.ipv4]).apply(to: device)?.addresses == [
                Self.eth0v4, Self.eth1v4, Self.unknownInterface,
            ])
        #expect(DeviceFilter(families: [.ipv6]).apply(to: device)?.addresses == [Self.eth0v6])
        #expect(DeviceFilter(interfaceName: "eth1").apply(to: device)?.addresses == [Self.eth1v4])
        #expect(DeviceFilter(interfaceName: "eth1", families: [.ipv6]).apply(to: device) == nil)
        #expect(DeviceFilter(interfaceName: "wlan9").apply(to: device) == nil)
        #expect(DeviceFilter(families: []).apply(to: device) == nil)
        #expect(DeviceFilter(families: [.ipv4]).apply(to: try Self.device([])) == nil)
    }
}
