/// What identifies one DNS-SD service instance: its name, base type and domain.
public struct ServiceKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The instance name, unescaped.
    public var name: String
    /// The base service type (`_googlecast._tcp`).
    public var type: ServiceType
    /// The domain (`local`).
    public var domain: String

    /// Creates a key.
    public init(name: String, type: ServiceType, domain: String) {
        self.name = name
        self.type = type
        self.domain = domain
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        // By name, type and domain; the types' text is made only for keys of one name.
        if lhs.name != rhs.name { return lhs.name < rhs.name }
        let (left, right) = (lhs.type.description, rhs.type.description)
        if left != right { return left < right }
        return lhs.domain < rhs.domain
    }

    public var description: String { "\(DNSSDName.escape(name)).\(type).\(domain)" }
}
