import CastDiscovery
import Foundation
import Testing

@Suite("ServiceAddress")
struct ServiceAddressTests {
    @Test(
        "family, link-local and endpoint",
        arguments: [
            ("192.168.1.20", ServiceAddress.Family.ipv4, false, "192.168.1.20:8009"),
            ("fd00::40", .ipv6, false, "[fd00::40]:8009"),
            ("fe80::a6b1:c1ff:fe2d:1001%eth0", .ipv6, true, "[fe80::a6b1:c1ff:fe2d:1001%eth0]:8009"),
            ("FEBF::1", .ipv6, true, "[febf::1]:8009"),
            ("fec0::1", .ipv6, false, "[fec0::1]:8009"),
        ])
    func classify(text: String, family: ServiceAddress.Family, linkLocal: Bool, endpoint: String) throws {
        let address = try #require(ServiceAddress(text, interfaceName: "eth0", interfaceIndex: 2))
        #expect(address.family == family)
        #expect(address.isLinkLocalIPv6 == linkLocal)
        #expect(address.endpoint(port: 8009) == endpoint)
        #expect(address.interfaceName == "eth0" && address.interfaceIndex == 2)
    }

    @Test("the address is typed: the zone is kept apart from the IPv6 address, and printed with it")
    func typed() throws {
        let zoned = try #require(ServiceAddress("fe80::1%eth0"))
        #expect(zoned.ip == .v6(try #require(IPv6Address("fe80::1"))))
        #expect(zoned.zone == "eth0")
        #expect(zoned.address == "fe80::1%eth0")
        let v4 = try #require(ServiceAddress("10.0.0.1"))
        #expect(v4.ip == .v4(IPv4Address(10, 0, 0, 1)))
        #expect(v4.zone == nil)
        // A link-local IPv6 address seen on an interface is zoned to it; a global one is not.
        let seen = ServiceAddress(try #require(IPv6Address("fe80::2")), interfaceName: "lab0", interfaceIndex: 3)
        #expect(seen.address == "fe80::2%lab0")
        let global = ServiceAddress(try #require(IPv6Address("fd00::2")), interfaceName: "lab0", interfaceIndex: 3)
        #expect(global.address == "fd00::2")
        #expect(ServiceAddress(.v4(IPv4Address(10, 0, 0, 1)), zone: "eth0").zone == nil, "no zone on IPv4")
    }

    @Test(
        "text that is no address is refused",
        arguments: [
            "", "10.0.0", "10.0.0.256", "010.0.0.1x", "fd00::1::2", "fe80::1%", "10.0.0.1%eth0", "host.local",
            "::g", String(repeating: "1", count: 100), "fe80::1%" + String(repeating: "x", count: 65), "1.2.3.4\u{0}",
        ])
    func refused(text: String) {
        #expect(ServiceAddress(text) == nil)
    }

    @Test("JSON keeps the same strings: address with its zone, family, interface")
    func coding() throws {
        let address = try #require(ServiceAddress("fe80::1%eth0", interfaceName: "eth0", interfaceIndex: 2))
        let data = try JSONEncoder().encode(address)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["address"] as? String == "fe80::1%eth0")
        #expect(object["family"] as? String == "ipv6")
        #expect(object["interfaceName"] as? String == "eth0")
        #expect(try JSONDecoder().decode(ServiceAddress.self, from: data) == address)
        for bad in [#"{"address":"nope"}"#, #"{"address":"10.0.0.1","family":"ipv6"}"#] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(ServiceAddress.self, from: Data(bad.utf8)) }
        }
    }

    @Test("a device's network address prefers IPv4")
    func preferIPv4() throws {
        let service = ResolvedService(
            instanceName: "x", hostName: "x.local", port: 8009,
            addresses: [ServiceAddress("fd00::1")!, ServiceAddress("10.0.0.1")!],
            txt: ["id=1", "fn=x", "ve=05", "ca=5", "st=0"])
        #expect(try CastDevice(service: service).networkAddress?.address == "10.0.0.1")
        var v6only = service
        v6only.addresses = [ServiceAddress("fd00::1")!]
        #expect(try CastDevice(service: v6only).networkAddress?.address == "fd00::1")
    }
}
