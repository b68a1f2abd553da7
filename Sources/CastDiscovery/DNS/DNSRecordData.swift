/// The data of a resource record, typed for the records DNS-SD uses and raw for every other.
public enum DNSRecordData: Sendable, Hashable {
    /// A pointer to another name (a service instance, for DNS-SD).
    case ptr(DNSName)
    /// A service's host and port (RFC 2782).
    case srv(priority: UInt16, weight: UInt16, port: UInt16, target: DNSName)
    /// Text strings (RFC 6763 section 6).
    case txt(TXTRecord)
    /// An IPv4 address.
    case a(IPv4Address)
    /// An IPv6 address.
    case aaaa(IPv6Address)
    /// The types that exist for the owner name; no other does (RFC 4034 section 4).
    case nsec(next: DNSName, types: [DNSRecordType])
    /// Any other type, its data kept as bytes (names in it are not decompressed).
    case other(type: DNSRecordType, bytes: [UInt8])

    /// The type of a record holding this data.
    public var type: DNSRecordType {
        switch self {
        case .ptr: .ptr
        case .srv: .srv
        case .txt: .txt
        case .a: .a
        case .aaaa: .aaaa
        case .nsec: .nsec
        case .other(let type, _): type
        }
    }
}
