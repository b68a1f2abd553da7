internal import CAvahi
import CastDiscovery
#if canImport(Glibc)
import Glibc
#endif

// Avahi's C constants, converted once to the types its functions take.
enum AvahiConstant {
    static let interfaceUnspecified = AvahiIfIndex(AVAHI_IF_UNSPEC)
    static let protocolUnspecified = AvahiProtocol(AVAHI_PROTO_UNSPEC)
    static let protocolIPv4 = AvahiProtocol(AVAHI_PROTO_INET)
    static let protocolIPv6 = AvahiProtocol(AVAHI_PROTO_INET6)
    static let noLookupFlags = AvahiLookupFlags(rawValue: 0)
    static let noClientFlags = AvahiClientFlags(rawValue: 0)
}

extension ServiceAddress.Family {
    /// The family of an Avahi protocol value (IPv4 unless it is `AVAHI_PROTO_INET6`).
    init(avahiProtocol: AvahiProtocol) {
        self = avahiProtocol == AvahiConstant.protocolIPv6 ? .ipv6 : .ipv4
    }

    /// The Avahi protocol value of the family.
    var avahiProtocol: AvahiProtocol {
        self == .ipv6 ? AvahiConstant.protocolIPv6 : AvahiConstant.protocolIPv4
    }
}

/// The index of the interface named `name`, or `AVAHI_IF_UNSPEC` for nil or a name no interface
/// has (the manager's filter then shows nothing of it).
func interfaceIndex(name: String?) -> AvahiIfIndex {
    guard let name, let index = InterfaceName.index(of: name) else { return AvahiConstant.interfaceUnspecified }
    return AvahiIfIndex(clamping: index)
}

/// The name of the interface with index `index` (`eth0`), or nil.
func interfaceName(index: AvahiIfIndex) -> String? {
    guard index > 0 else { return nil }
    return InterfaceName.of(index: UInt32(index))
}

/// An Avahi address as a typed address on its interface (a link-local IPv6 one zoned to it);
/// nil for a protocol other than IPv4 and IPv6.
func serviceAddress(_ address: UnsafePointer<AvahiAddress>, interfaceIndex: AvahiIfIndex) -> ServiceAddress? {
    let name = interfaceName(index: interfaceIndex)
    switch address.pointee.proto {
    case AvahiConstant.protocolIPv4:
        // In network byte order: the first byte of the address is the first in memory.
        let value = UInt32(bigEndian: address.pointee.data.ipv4.address)
        return ServiceAddress(IPv4Address(value: value), interfaceName: name, interfaceIndex: interfaceIndex)
    case AvahiConstant.protocolIPv6:
        let bytes = withUnsafeBytes(of: address.pointee.data.ipv6.address) { Array($0) }
        guard let v6 = IPv6Address(bytes: bytes) else { return nil }
        return ServiceAddress(v6, interfaceName: name, interfaceIndex: interfaceIndex)
    default:
        return nil
    }
}

/// The strings of an Avahi TXT list as raw bytes, in list order.
func txtStrings(_ list: UnsafeMutablePointer<AvahiStringList>?) -> [[UInt8]] {
    var strings: [[UInt8]] = []
    var node = list
    while let current = node {
        let size = Int(current.pointee.size)
        let bytes = withUnsafePointer(to: &current.pointee.text) { pointer in
            pointer.withMemoryRebound(to: UInt8.self, capacity: size) {
                Array(UnsafeBufferPointer(start: $0, count: size))
            }
        }
        strings.append(bytes)
        node = current.pointee.next
    }
    return strings
}

/// The text of a NUL-terminated C buffer, UTF-8 with invalid bytes replaced.
func string(fromCString buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
