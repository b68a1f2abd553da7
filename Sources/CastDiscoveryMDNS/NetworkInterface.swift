import CastDiscovery

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One network interface as `getifaddrs` reports it: its flags and every address with its prefix.
package struct NetworkInterface: Sendable, Hashable {
    /// An address on the interface and the length of its network prefix.
    struct Prefix: Sendable, Hashable {
        /// The address bytes (4 for IPv4, 16 for IPv6).
        var address: [UInt8]
        /// The prefix length in bits.
        var length: Int

        /// Whether `other` (of the same family) lies in this prefix.
        func contains(_ other: [UInt8]) -> Bool {
            guard other.count == address.count else { return false }
            var bits = length
            for index in 0..<address.count {
                guard bits > 0 else { return true }
                let mask: UInt8 = bits >= 8 ? 0xFF : ~(0xFF >> UInt8(bits))
                if address[index] & mask != other[index] & mask { return false }
                bits -= 8
            }
            return true
        }
    }

    package var name: String
    var index: Int32
    var isUp: Bool
    var isLoopback: Bool
    var supportsMulticast: Bool
    var ipv4: [Prefix]
    var ipv6: [Prefix]

    /// Whether the interface can carry mDNS for the querier: up, multicast, not loopback.
    package var isUsable: Bool { isUp && supportsMulticast && !isLoopback }

    /// Every address on the interface in presentation form, IPv4 first; an IPv6 link-local
    /// one with the interface as its zone (`fe80::1%eth0`), as a socket bound to it needs.
    package var addressTexts: [String] {
        let v4 = ipv4.compactMap { prefix -> String? in
            guard prefix.address.count == 4 else { return nil }
            let address = IPv4Address(prefix.address[0], prefix.address[1], prefix.address[2], prefix.address[3])
            return ServiceAddress(address, interfaceName: name, interfaceIndex: index).address
        }
        let v6 = ipv6.compactMap { prefix in
            IPv6Address(bytes: prefix.address).map {
                ServiceAddress($0, interfaceName: name, interfaceIndex: index).address
            }
        }
        return v4 + v6
    }

    /// The interface's first IPv4 address, the source of its IPv4 queries.
    var primaryIPv4: [UInt8]? { ipv4.first?.address }

    /// Whether a packet from `source` that arrived on this interface came from the local link
    /// (RFC 6762 section 11): an IPv4 source in one of the interface's subnets; an IPv6 source
    /// that is link-local or in one of the interface's on-link prefixes.
    func isOnLink(_ source: [UInt8]) -> Bool {
        switch source.count {
        case 4: ipv4.contains { $0.contains(source) }
        case 16:
            (source[0] == 0xFE && source[1] & 0xC0 == 0x80) || ipv6.contains { $0.length > 0 && $0.contains(source) }
        default: false
        }
    }

    /// The interfaces of the system now.
    package static func all() -> [NetworkInterface] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var byName: [String: NetworkInterface] = [:]
        var order: [String] = []
        var entry: UnsafeMutablePointer<ifaddrs>? = first
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            guard let cName = current.pointee.ifa_name else { continue }
            let name = String(cString: cName)
            let flags = Int32(bitPattern: current.pointee.ifa_flags)
            if byName[name] == nil {
                byName[name] = NetworkInterface(
                    name: name, index: Int32(bitPattern: if_nametoindex(cName)), isUp: flags & Int32(IFF_UP) != 0,
                    isLoopback: flags & Int32(IFF_LOOPBACK) != 0,
                    supportsMulticast: flags & Int32(IFF_MULTICAST) != 0, ipv4: [], ipv6: [])
                order.append(name)
            }
            guard let address = current.pointee.ifa_addr else { continue }
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                let bytes = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    SocketAddress.bytes(of: $0.pointee.sin_addr)
                }
                let mask = current.pointee.ifa_netmask.map { mask in
                    mask.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                        SocketAddress.bytes(of: $0.pointee.sin_addr)
                    }
                }
                byName[name]?.ipv4.append(Prefix(address: bytes, length: mask.map(Self.prefixLength) ?? 32))
            case AF_INET6:
                let bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    SocketAddress.bytes(of: $0.pointee.sin6_addr)
                }
                let mask = current.pointee.ifa_netmask.map { mask in
                    mask.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        SocketAddress.bytes(of: $0.pointee.sin6_addr)
                    }
                }
                byName[name]?.ipv6.append(Prefix(address: bytes, length: mask.map(Self.prefixLength) ?? 128))
            default:
                break
            }
        }
        return order.compactMap { byName[$0] }
    }

    private static func prefixLength(_ mask: [UInt8]) -> Int {
        mask.reduce(0) { $0 + $1.nonzeroBitCount }
    }
}
