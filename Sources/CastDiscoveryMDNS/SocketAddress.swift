import CastDiscovery

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The source or destination of an mDNS datagram: an IPv4 or IPv6 address, a port and, for
/// IPv6, the interface (scope).
struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address bytes: 4 for IPv4, 16 for IPv6.
    var bytes: [UInt8]
    var port: UInt16
    /// The scope of an IPv6 address (the interface index); 0 for IPv4.
    var scope: UInt32 = 0

    /// The mDNS group of a family: 224.0.0.251 or ff02::fb, port 5353.
    static func group(ipv6: Bool, interface: Int32) -> SocketAddress {
        ipv6
            ? SocketAddress(
                bytes: [0xFF, 0x02] + [UInt8](repeating: 0, count: 13) + [0xFB], port: 5353,
                scope: UInt32(bitPattern: interface))
            : SocketAddress(bytes: [224, 0, 0, 251], port: 5353)
    }

    var isIPv6: Bool { bytes.count == 16 }

    var family: ServiceAddress.Family { isIPv6 ? .ipv6 : .ipv4 }

    /// The address alone, in its family's text form (`10.213.1.1`, `fe80::1`).
    var addressText: String {
        if isIPv6, let address = IPv6Address(bytes: bytes) { return address.description }
        if bytes.count == 4 { return IPv4Address(bytes[0], bytes[1], bytes[2], bytes[3]).description }
        return "?"
    }

    var description: String { isIPv6 ? "[\(addressText)]:\(port)" : "\(addressText):\(port)" }

    /// The address as a service's address: an IPv6 one with a scope zoned to that interface's
    /// name (or its index when the interface is gone); nil for a malformed byte count.
    var serviceAddress: ServiceAddress? {
        if bytes.count == 4 { return ServiceAddress(.v4(IPv4Address(bytes[0], bytes[1], bytes[2], bytes[3]))) }
        guard let address = IPv6Address(bytes: bytes) else { return nil }
        guard scope != 0 else { return ServiceAddress(.v6(address)) }
        let name = InterfaceName.of(index: scope)
        return ServiceAddress(
            .v6(address), zone: name ?? String(scope), interfaceName: name, interfaceIndex: Int32(bitPattern: scope))
    }

    /// Calls `body` with the address as a `sockaddr` and its length.
    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_scope_id = scope
            withUnsafeMutableBytes(of: &address.sin6_addr) { $0.copyBytes(from: bytes) }
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        withUnsafeMutableBytes(of: &address.sin_addr) { $0.copyBytes(from: bytes) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// The address in a `sockaddr_storage` filled by `recvmsg`; nil for another family.
    init?(storage: sockaddr_storage) {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            let address = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
            }
            self.init(bytes: Self.bytes(of: address.sin_addr), port: UInt16(bigEndian: address.sin_port))
        case AF_INET6:
            let address = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee }
            }
            self.init(
                bytes: Self.bytes(of: address.sin6_addr), port: UInt16(bigEndian: address.sin6_port),
                scope: address.sin6_scope_id)
        default:
            return nil
        }
    }

    init(bytes: [UInt8], port: UInt16, scope: UInt32 = 0) {
        self.bytes = bytes
        self.port = port
        self.scope = scope
    }

    static func bytes<T>(of value: T) -> [UInt8] {
        withUnsafeBytes(of: value) { Array($0) }
    }
}
