/// One network address of a resolved service, tagged with the interface it was seen on.
public struct ServiceAddress: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The address family of a ``ServiceAddress``.
    public enum Family: String, Sendable, Hashable, Codable {
        /// An IPv4 address.
        case ipv4
        /// An IPv6 address.
        case ipv6
    }

    /// The address in presentation form (`192.168.1.20`, `fd00::1`, `fe80::1%eth0`).
    public var address: String
    /// The address family.
    public var family: Family
    /// The name of the interface the address was seen on, when known (`eth0`).
    public var interfaceName: String?
    /// The index of the interface the address was seen on, when known.
    public var interfaceIndex: Int32?

    /// Creates an address; the family is IPv6 when the text contains a colon, else IPv4.
    public init(_ address: String, interfaceName: String? = nil, interfaceIndex: Int32? = nil) {
        self.address = address
        self.family = address.contains(":") ? .ipv6 : .ipv4
        self.interfaceName = interfaceName
        self.interfaceIndex = interfaceIndex
    }

    /// Whether this is an IPv6 link-local address (`fe80::/10`), which needs a scope to be used.
    public var isLinkLocalIPv6: Bool {
        guard family == .ipv6 else { return false }
        let lower = address.lowercased()
        return lower.hasPrefix("fe8") || lower.hasPrefix("fe9") || lower.hasPrefix("fea") || lower.hasPrefix("feb")
    }

    /// The address as `host:port` text, with IPv6 in brackets.
    public func endpoint(port: UInt16) -> String {
        family == .ipv6 ? "[\(address)]:\(port)" : "\(address):\(port)"
    }

    public var description: String { address }
}
