@testable import CastDiscoveryMDNS
import Testing

/// The one rule for whether any network can be asked by multicast, and how it says why not.
@Suite("NetworkInterface: is there a network to ask by multicast")
struct NetworkInterfaceMulticastTests {
    static func interface(_ name: String, up: Bool = true, loopback: Bool = false, multicast: Bool = true)
        -> NetworkInterface
    {
        NetworkInterface(
            name: name, index: 1, isUp: up, isLoopback: loopback, supportsMulticast: multicast, ipv4: [], ipv6: [])
    }

    @Test("one interface up with multicast, loopback aside, is enough")
    func usable() {
        #expect(
            NetworkInterface.multicastUnavailability([Self.interface("lo", loopback: true), Self.interface("eth0")])
                == nil)
        #expect(
            NetworkInterface.multicastUnavailability([Self.interface("eth0", up: false), Self.interface("wlan0")])
                == nil)
    }

    @Test("none: the message names each interface and what it lacks; the fix names one to bring up")
    func unusable() throws {
        let loopbackOnly = try #require(
            NetworkInterface.multicastUnavailability([Self.interface("lo", up: false, loopback: true)]))
        #expect(loopbackOnly.message == "no network interface with multicast is up: lo is loopback")
        #expect(
            loopbackOnly.fix == "bring up a network interface with multicast, e.g. `ip link set eth0 up multicast on`")

        let all = try #require(
            NetworkInterface.multicastUnavailability([
                Self.interface("lo", loopback: true), Self.interface("enp1s0", up: false),
                Self.interface("lab0", multicast: false), Self.interface("wg0", up: false, multicast: false),
            ]))
        #expect(
            all.message
                == "no network interface with multicast is up: lo is loopback, enp1s0 is down, lab0 has multicast off, wg0 is down and has multicast off"
        )
        #expect(all.fix == "bring up a network interface with multicast, e.g. `ip link set enp1s0 up multicast on`")

        let nothing = try #require(NetworkInterface.multicastUnavailability([]))
        #expect(nothing.message == "no network interface with multicast is up: there is no interface at all")
    }

    @Test("the machine's own interfaces: unavailable exactly when none is usable")
    func machine() {
        let all = NetworkInterface.all()
        #expect((NetworkInterface.multicastUnavailability(all) == nil) == all.contains(where: \.isUsable))
    }
}
