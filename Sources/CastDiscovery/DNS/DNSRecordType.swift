/// The type of a DNS record or question (RFC 1035 section 3.2.2, and later RFCs).
public struct DNSRecordType: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The type's number.
    public let rawValue: UInt16

    /// Creates the type with number `rawValue`.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// An IPv4 address.
    public static let a = DNSRecordType(rawValue: 1)
    /// A canonical name.
    public static let cname = DNSRecordType(rawValue: 5)
    /// A domain name pointer: DNS-SD's service and subtype lists.
    public static let ptr = DNSRecordType(rawValue: 12)
    /// Text strings: DNS-SD's key=value attributes.
    public static let txt = DNSRecordType(rawValue: 16)
    /// An IPv6 address.
    public static let aaaa = DNSRecordType(rawValue: 28)
    /// A service's host and port.
    public static let srv = DNSRecordType(rawValue: 33)
    /// "No other types exist for this name" (RFC 4034 section 4; RFC 6762 section 6.1).
    public static let nsec = DNSRecordType(rawValue: 47)
    /// Every type, in questions only.
    public static let any = DNSRecordType(rawValue: 255)

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `PTR`, `SRV`, ... or `TYPE65280` for a type without a mnemonic here (RFC 3597).
    public var description: String {
        switch self {
        case .a: "A"
        case .cname: "CNAME"
        case .ptr: "PTR"
        case .txt: "TXT"
        case .aaaa: "AAAA"
        case .srv: "SRV"
        case .nsec: "NSEC"
        case .any: "ANY"
        default: "TYPE\(rawValue)"
        }
    }
}
