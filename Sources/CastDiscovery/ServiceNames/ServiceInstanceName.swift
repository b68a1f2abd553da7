/// The name of one DNS-SD service instance: an instance label (any bytes, usually UTF-8), a
/// service type and a domain, for example `Living Room` + `_googlecast._tcp` + `local`.
///
/// Two names are equal when they name the same DNS name: letters compare case-insensitively
/// (ASCII), as in DNS.
public struct ServiceInstanceName: Sendable {
    /// The instance label as raw bytes, unescaped.
    public let instanceBytes: [UInt8]
    /// The service type, in this name's domain. An instance lives under the base type; a subtype,
    /// if present, is kept but not part of ``escapedFullName``.
    public let type: ServiceType

    /// Creates a name from instance text (its UTF-8 bytes), a type and a domain. The domain given
    /// here replaces the type's own domain.
    public init(instance: String, type: ServiceType, domain: String = "local") {
        self.init(instanceBytes: Array(instance.utf8), type: type, domain: domain)
    }

    /// Creates a name from raw instance bytes, a type and a domain. The domain given here replaces
    /// the type's own domain.
    public init(instanceBytes: [UInt8], type: ServiceType, domain: String = "local") {
        self.instanceBytes = instanceBytes
        self.type = type.inDomain(domain)
    }

    /// Reads a full escaped name such as `Living\032Room._googlecast._tcp.local`: the first label
    /// is the instance, the rest the service type and domain (`local` when absent). Instance
    /// length is not checked here; see ``validate()``.
    public init(parsingEscaped text: String) throws(DNSSDNameError) {
        let input = Array(text.utf8)
        guard !input.isEmpty else { throw .emptyName }
        let (instance, end) = try DNSSDName.scanLabel(input, from: 0, stopAtDot: true)
        guard end > 0 else { throw .emptyLabel(offset: 0) }
        guard end < input.count else { throw .missingServiceType(offset: input.count) }
        let rest = DNSSDBytes.decode(input[(end + 1)...])
        let type: ServiceType
        do throws(DNSSDNameError) {
            type = try ServiceType(parsing: rest)
        } catch {
            throw error.shifted(by: end + 1)
        }
        self.instanceBytes = instance
        self.type = type
    }

    /// The instance label decoded as UTF-8, with invalid bytes replaced by U+FFFD.
    public var instance: String { DNSSDBytes.decode(instanceBytes) }

    /// The domain in escaped presentation form without a trailing dot.
    public var domain: String { type.domain }

    /// The instance label in escaped presentation form, as `avahi-browse -p` prints it.
    public var escapedInstance: String { DNSSDName.escape(label: instanceBytes) }

    /// The full escaped name with a trailing dot, for example
    /// `Living\032Room._googlecast._tcp.local.`.
    public var escapedFullName: String {
        escapedInstance + "." + type.base.fullName
    }

    /// Checks that the instance label is 1 to 63 bytes long (RFC 6763 section 4.1.1).
    public func validate() throws(DNSSDNameError) {
        try DNSSDName.validate(label: instanceBytes)
    }
}

extension ServiceInstanceName: CustomStringConvertible {
    /// The full escaped name, as ``escapedFullName``.
    public var description: String { escapedFullName }
}

extension ServiceInstanceName: Hashable {
    /// Whether two names name the same DNS name (ASCII case-insensitive).
    public static func == (lhs: ServiceInstanceName, rhs: ServiceInstanceName) -> Bool {
        lhs.type == rhs.type && DNSSDBytes.asciiCaseInsensitiveEqual(lhs.instanceBytes, rhs.instanceBytes)
    }

    /// Hashes the case-folded parts, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(instanceBytes.map(DNSSDBytes.asciiLowercased))
        hasher.combine(type)
    }
}
