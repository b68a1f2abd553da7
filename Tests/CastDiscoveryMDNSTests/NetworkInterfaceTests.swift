@testable import CastDiscoveryMDNS
import Testing

@Suite("NetworkInterface: which sources are on the link")
struct NetworkInterfaceTests {
    static let lab = NetworkInterface(
        name: "lab0", index: 2, isUp: true, isLoopback: false, supportsMulticast: true,
        ipv4: [.init(address: [10, 213, 0, 1], length: 16)],
        ipv6: [
            .init(address: [0xFD, 0, 0xCA, 0x57] + [UInt8](repeating: 0, count: 11) + [1], length: 64),
            .init(address: [0xFE, 0x80] + [UInt8](repeating: 0, count: 13) + [9], length: 64),
        ])

    @Test("an IPv4 source in the interface's subnet, a link-local or on-link IPv6 source: on the link")
    func onLink() {
        #expect(Self.lab.isOnLink([10, 213, 1, 1]))
        #expect(Self.lab.isOnLink([10, 213, 255, 254]))
        #expect(!Self.lab.isOnLink([10, 214, 0, 1]))
        #expect(!Self.lab.isOnLink([192, 0, 2, 5]))
        #expect(Self.lab.isOnLink([0xFE, 0x80] + [UInt8](repeating: 0, count: 13) + [0x42]))
        #expect(Self.lab.isOnLink([0xFD, 0, 0xCA, 0x57, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 5]))
        #expect(!Self.lab.isOnLink([0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 12)))
        #expect(!Self.lab.isOnLink([1, 2, 3]))
    }

    @Test("prefixes of any length, including /0 and /32")
    func prefixes() {
        #expect(NetworkInterface.Prefix(address: [192, 168, 1, 77], length: 25).contains([192, 168, 1, 1]))
        #expect(!NetworkInterface.Prefix(address: [192, 168, 1, 77], length: 25).contains([192, 168, 1, 200]))
        #expect(NetworkInterface.Prefix(address: [10, 0, 0, 1], length: 32).contains([10, 0, 0, 1]))
        #expect(!NetworkInterface.Prefix(address: [10, 0, 0, 1], length: 32).contains([10, 0, 0, 2]))
        #expect(NetworkInterface.Prefix(address: [10, 0, 0, 1], length: 0).contains([8, 8, 8, 8]))
    }

    @Test("the machine's own interfaces are listed, loopback among them")
    func listing() {
        let all = NetworkInterface.all()
        #expect(all.contains { $0.isLoopback && $0.ipv4.contains { $0.address == [127, 0, 0, 1] } })
        #expect(!all.contains { $0.isLoopback && $0.isUsable })
    }
}
