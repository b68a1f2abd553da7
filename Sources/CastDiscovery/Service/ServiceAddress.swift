/// One network address of a resolved service, tagged with the interface it was seen on.
public struct ServiceAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address family of a ``ServiceAddress``.
    public enum Family: String, Sendable, Hashable, Codable {
        /// An IPv4 address.
        case ipv4
        /// An IPv6 address.
        case ipv6
    }

    /// An IPv4 or an IPv6 address.
    public enum IP: Sendable, Hashable, CustomStringConvertible {
        /// An IPv4 address.
        case v4(IPv4Address)
        /// An IPv6 address.
        case v6(IPv6Address)

        /// The address in text: dotted decimal, or RFC 5952 for IPv6.
        public var description: String {
            switch self {
            case .v4(let address): address.description
            case .v6(let address): address.description
            }
        }
    }

    /// The address.
    public var ip: IP
    /// The IPv6 scope zone a link-local address needs to be used (the interface name, `eth0`);
    /// nil otherwise.
    public var zone: String?
    /// The name of the interface the address was seen on, when known (`eth0`).
    public var interfaceName: String?
    /// The index of the interface the address was seen on, when known.
    public var interfaceIndex: Int32?

    /// Creates an address. A zone is kept for IPv6 only.
    public init(_ ip: IP, zone: String? = nil, interfaceName: String? = nil, interfaceIndex: Int32? = nil) {
        self.ip = ip
        if case .v6 = ip { self.zone = zone } else { self.zone = nil }
        self.interfaceName = interfaceName
        self.interfaceIndex = interfaceIndex
    }

    /// Creates an IPv6 address seen on an interface: a link-local one gets the interface's name
    /// as its zone.
    public init(_ address: IPv6Address, interfaceName: String?, interfaceIndex: Int32?) {
        self.init(
            .v6(address), zone: address.isLinkLocal ? interfaceName : nil, interfaceName: interfaceName,
            interfaceIndex: interfaceIndex)
    }

    /// Creates an IPv4 address seen on an interface.
    public init(_ address: IPv4Address, interfaceName: String?, interfaceIndex: Int32?) {
        self.init(.v4(address), interfaceName: interfaceName, interfaceIndex: interfaceIndex)
    }

    /// Parses an address in presentation form (`192.168.1.20`, `fd00::1`, `fe80::1%eth0`); nil
    /// when the text is no IPv4 or IPv6 address, or has a zone that is empty, longer than an
    /// interface name can be, or on an IPv4 address.
    public init?(_ text: String, interfaceName: String? = nil, interfaceIndex: Int32? = nil) {
        let parts = text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)
        if let v4 = IPv4Address(text) {
            self.init(.v4(v4), interfaceName: interfaceName, interfaceIndex: interfaceIndex)
        } else if let v6 = IPv6Address(String(parts[0])) {
            let zone = parts.count == 2 ? String(parts[1]) : nil
            if let zone, zone.isEmpty || zone.utf8.count > 64 { return nil }
            self.init(.v6(v6), zone: zone, interfaceName: interfaceName, interfaceIndex: interfaceIndex)
        } else {
            return nil
        }
    }

    /// The address family.
    public var family: Family {
        switch ip {
        case .v4: .ipv4
        case .v6: .ipv6
        }
    }

    /// The address in presentation form, with its zone (`192.168.1.20`, `fd00::1`,
    /// `fe80::1%eth0`).
    public var address: String {
        zone.map { "\(ip)%\($0)" } ?? ip.description
    }

    /// Whether this is an IPv6 link-local address (`fe80::/10`), which needs a scope to be used.
    public var isLinkLocalIPv6: Bool {
        if case .v6(let address) = ip { return address.isLinkLocal }
        return false
    }

    /// The address as `host:port` text, with IPv6 in brackets.
    public func endpoint(port: UInt16) -> String {
        family == .ipv6 ? "[\(address)]:\(port)" : "\(address):\(port)"
    }

    public var description: String { address }
}

extension ServiceAddress: Codable {
    private enum CodingKeys: String, CodingKey {
        case address, family, interfaceName, interfaceIndex
    }

    /// Decodes `{"address": "fe80::1%eth0", "family": "ipv6", "interfaceName": ..., "interfaceIndex": ...}`;
    /// the family, when present, must match the address.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .address)
        let name = try container.decodeIfPresent(String.self, forKey: .interfaceName)
        let index = try container.decodeIfPresent(Int32.self, forKey: .interfaceIndex)
        guard let parsed = ServiceAddress(text, interfaceName: name, interfaceIndex: index) else {
            throw DecodingError.dataCorruptedError(
                forKey: .address, in: container, debugDescription: "not an IP address")
        }
        if let family = try container.decodeIfPresent(Family.self, forKey: .family), family != parsed.family {
            throw DecodingError.dataCorruptedError(
                forKey: .family, in: container, debugDescription: "not the address's family")
        }
        self = parsed
    }

    /// Encodes the address as text with its family and interface, as ``init(from:)`` reads it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(address, forKey: .address)
        try container.encode(family, forKey: .family)
        try container.encodeIfPresent(interfaceName, forKey: .interfaceName)
        try container.encodeIfPresent(interfaceIndex, forKey: .interfaceIndex)
    }
}
