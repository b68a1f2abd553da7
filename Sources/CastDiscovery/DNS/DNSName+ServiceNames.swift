extension DNSName {
    /// The name of a service instance: its instance label, then its base type and domain
    /// (`Living Room._googlecast._tcp.local.`), so the same service has one identity whichever
    /// backend saw it.
    public init(_ instance: ServiceInstanceName) throws(DNSNameError) {
        try self.init(labels: [instance.instanceBytes] + Self.typeLabels(instance.type.base))
    }

    /// The name browsed for a service type: `_googlecast._tcp.local.`, or for a subtype
    /// `_CC1AD845._sub._googlecast._tcp.local.`.
    public init(_ type: ServiceType) throws(DNSNameError) {
        try self.init(labels: Self.typeLabels(type))
    }

    /// The name of a host in the `local` domain, from avahi's escaped form (`x.local`); nil when
    /// it is not a valid name.
    public init?(hostName: String) {
        guard let name = try? DNSName(parsing: hostName) else { return nil }
        self = name
    }

    private static func typeLabels(_ type: ServiceType) throws(DNSNameError) -> [[UInt8]] {
        var labels: [[UInt8]] = []
        if let subtype = type.subtype { labels += [Array(subtype.utf8), Array("_sub".utf8)] }
        labels += [Array(type.name.utf8), Array(type.transport.label.utf8)]
        do throws(DNSSDNameError) {
            labels += try DNSSDName.splitLabels(type.domain)
        } catch {
            throw .unreadable(error)
        }
        return labels
    }
}

extension ServiceInstanceName {
    /// The instance a DNS name names: its first label is the instance, then a service type
    /// (`_name._tcp` or `_name._udp`) and the domain; nil when the name is not one.
    public init?(dnsName: DNSName) {
        let labels = dnsName.labels
        guard labels.count >= 3, let type = ServiceType(typeLabels: labels[1...]), !type.isSubtype else { return nil }
        self.init(instanceBytes: labels[0], type: type, domain: type.domain)
    }
}

extension ServiceType {
    /// The service type of the labels `_name._tcp.domain...` or `_sub-label._sub._name._tcp.domain...`;
    /// nil when they are not one (the service name is not checked against RFC 6335 here).
    public init?(dnsName: DNSName) {
        self.init(typeLabels: dnsName.labels[...])
    }

    init?(typeLabels labels: ArraySlice<[UInt8]>) {
        var rest = labels
        var subtype: String?
        if rest.count >= 4, DNSSDBytes.asciiCaseInsensitiveEqual(rest[rest.startIndex + 1], "_sub".utf8) {
            guard rest.first?.first == DNSSDBytes.underscore else { return nil }
            subtype = DNSSDBytes.decode(rest[rest.startIndex])
            rest = rest.dropFirst(2)
        }
        guard rest.count >= 2, let name = rest.first, name.first == DNSSDBytes.underscore, name.count >= 2,
            let transport = ServiceTransport(label: DNSSDBytes.decode(rest[rest.startIndex + 1]))
        else { return nil }
        let domain = rest.dropFirst(2)
        self.init(
            name: DNSSDBytes.decode(name), transport: transport, subtype: subtype,
            domain: domain.isEmpty ? "local" : DNSSDName.join(labels: Array(domain)))
    }
}

extension ServiceKey {
    /// The key of the instance a DNS name names (the instance label as text, avahi's unescaped
    /// form); nil when the name is not an instance name.
    public init?(dnsName: DNSName) {
        guard let instance = ServiceInstanceName(dnsName: dnsName) else { return nil }
        self.init(name: instance.instance, type: instance.type, domain: instance.domain)
    }
}
