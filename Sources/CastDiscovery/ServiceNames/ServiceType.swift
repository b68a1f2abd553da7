/// A DNS-SD service type such as `_googlecast._tcp`, optionally narrowed to a subtype such as
/// `_CC1AD845._sub._googlecast._tcp` (RFC 6763 section 7), in a domain.
///
/// Two service types are equal when they name the same DNS names: letters compare
/// case-insensitively (ASCII), as in DNS.
public struct ServiceType: Sendable {
    /// The service name label including its underscore, for example `_googlecast`.
    public let name: String
    /// The transport label: `_tcp` or `_udp`.
    public let transport: ServiceTransport
    /// The subtype label including its underscore (for example `_CC1AD845`), unescaped; `nil` for
    /// the base type.
    public let subtype: String?
    /// The domain in escaped presentation form without a trailing dot, for example `local`.
    public let domain: String

    /// The Google Cast service type, `_googlecast._tcp` in `local`.
    public static let googleCast = ServiceType(name: "_googlecast", transport: .tcp)

    /// Creates a service type from its parts, as given (not validated). A trailing dot on `domain`
    /// is dropped and an empty domain means `local`.
    public init(name: String, transport: ServiceTransport, subtype: String? = nil, domain: String = "local") {
        self.name = name
        self.transport = transport
        self.subtype = subtype
        var domain = Array(domain.utf8)
        if domain.last == DNSSDBytes.dot {
            // The final dot is a separator unless an odd number of backslashes escapes it.
            let backslashes = domain.dropLast().reversed().prefix { $0 == DNSSDBytes.backslash }.count
            if backslashes % 2 == 0 { domain.removeLast() }
        }
        self.domain = domain.isEmpty ? "local" : DNSSDBytes.decode(domain)
    }

    /// This type narrowed to the subtype `label` (the full label, for example `_CC1AD845`).
    public func subtype(_ label: String) -> ServiceType {
        ServiceType(name: name, transport: transport, subtype: label, domain: domain)
    }

    /// This type without a subtype.
    public var base: ServiceType {
        ServiceType(name: name, transport: transport, subtype: nil, domain: domain)
    }

    /// This type in another domain.
    public func inDomain(_ domain: String) -> ServiceType {
        ServiceType(name: name, transport: transport, subtype: subtype, domain: domain)
    }

    /// Whether this type is narrowed to a subtype.
    public var isSubtype: Bool { subtype != nil }

    /// The type without its domain in escaped form, for example `_googlecast._tcp` or
    /// `_CC1AD845._sub._googlecast._tcp`: what a browser is given.
    public var typeString: String {
        let base = DNSSDName.escape(name) + "." + transport.label
        guard let subtype else { return base }
        return DNSSDName.escape(subtype) + "._sub." + base
    }

    /// The fully qualified name with its domain and a trailing dot, for example
    /// `_googlecast._tcp.local.`.
    public var fullName: String {
        typeString + "." + domain + "."
    }

    /// The registration type in the dns_sd (Bonjour / avahi-compat) subtype syntax, for example
    /// `_googlecast._tcp,_CC1AD845`.
    public var dnssdRegistrationType: String {
        let base = DNSSDName.escape(name) + "." + transport.label
        guard let subtype else { return base }
        return base + "," + DNSSDName.escape(subtype)
    }
}

extension ServiceType: CustomStringConvertible {
    /// The type without its domain, for example `_CC1AD845._sub._googlecast._tcp`.
    public var description: String { typeString }
}

extension ServiceType: Hashable {
    /// Whether two types name the same DNS names (ASCII case-insensitive).
    public static func == (lhs: ServiceType, rhs: ServiceType) -> Bool {
        lhs.transport == rhs.transport
            && DNSSDBytes.asciiCaseInsensitiveEqual(lhs.name, rhs.name)
            && DNSSDBytes.asciiCaseInsensitiveEqual(lhs.domain, rhs.domain)
            && lhs.subtype.map { s in rhs.subtype.map { DNSSDBytes.asciiCaseInsensitiveEqual(s, $0) } ?? false }
                ?? (rhs.subtype == nil)
    }

    /// Hashes the case-folded parts, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        DNSSDBytes.hashASCIILowercased(name, into: &hasher)
        hasher.combine(transport)
        if let subtype {
            hasher.combine(true)
            DNSSDBytes.hashASCIILowercased(subtype, into: &hasher)
        } else {
            hasher.combine(false)
        }
        DNSSDBytes.hashASCIILowercased(domain, into: &hasher)
    }
}
