extension ServiceType {
    /// Reads a service type in escaped presentation form: `_googlecast._tcp`,
    /// `_googlecast._tcp.local`, `_googlecast._tcp.local.`, or a subtype such as
    /// `_CC1AD845._sub._googlecast._tcp.local.`. Without a domain the domain is `local`.
    ///
    /// The service name must follow RFC 6335 (1-15 letters, digits and single inner hyphens, at
    /// least one letter); the transport must be `_tcp` or `_udp`; a subtype label must start with
    /// `_` and be at most 63 bytes.
    public init(parsing text: String) throws(DNSSDNameError) {
        let labels = try DNSSDName.scanLabels(text)
        guard !labels.isEmpty else { throw .emptyName }
        var index = 0
        var subtype: String?
        if labels.count >= 2, DNSSDBytes.asciiCaseInsensitiveEqual(labels[1].bytes, "_sub".utf8) {
            let label = labels[0]
            try Self.checkUnderscoreLabel(label)
            subtype = DNSSDBytes.decode(label.bytes)
            index = 2
            guard index < labels.count else { throw .missingTransport(offset: text.utf8.count) }
        }
        let nameLabel = labels[index]
        try Self.checkServiceName(nameLabel)
        index += 1
        guard index < labels.count else { throw .missingTransport(offset: text.utf8.count) }
        let transportLabel = labels[index]
        let transportText = DNSSDBytes.decode(transportLabel.bytes)
        guard let transport = ServiceTransport(label: transportText) else {
            throw .invalidTransport(offset: transportLabel.offset, label: transportText)
        }
        index += 1
        let domainLabels = labels[index...]
        for label in domainLabels where label.bytes.count > DNSSDName.maximumLabelLength {
            throw .labelTooLong(offset: label.offset, length: label.bytes.count)
        }
        self.init(
            name: DNSSDBytes.decode(nameLabel.bytes),
            transport: transport,
            subtype: subtype,
            domain: domainLabels.isEmpty ? "local" : DNSSDName.join(labels: domainLabels.map(\.bytes))
        )
    }

    /// Checks a label that must start with `_` and have something after it, at most 63 bytes.
    private static func checkUnderscoreLabel(_ label: (bytes: [UInt8], offset: Int)) throws(DNSSDNameError) {
        guard label.bytes.first == DNSSDBytes.underscore, label.bytes.count >= 2 else {
            throw .missingUnderscore(offset: label.offset, label: DNSSDBytes.decode(label.bytes))
        }
        if label.bytes.count > DNSSDName.maximumLabelLength {
            throw .labelTooLong(offset: label.offset, length: label.bytes.count)
        }
    }

    /// Checks a service-name label: `_` followed by an RFC 6335 service name.
    private static func checkServiceName(_ label: (bytes: [UInt8], offset: Int)) throws(DNSSDNameError) {
        guard label.bytes.first == DNSSDBytes.underscore else {
            throw .missingUnderscore(offset: label.offset, label: DNSSDBytes.decode(label.bytes))
        }
        let name = label.bytes.dropFirst()
        guard !name.isEmpty else {
            throw .invalidServiceName(offset: label.offset, name: "")
        }
        guard name.count <= 15 else {
            throw .serviceNameTooLong(offset: label.offset, length: name.count)
        }
        let allowed = name.allSatisfy { DNSSDBytes.isLetter($0) || DNSSDBytes.isDigit($0) || $0 == DNSSDBytes.hyphen }
        let hyphen = DNSSDBytes.hyphen
        let doubleHyphen = zip(name, name.dropFirst()).contains { $0 == hyphen && $1 == hyphen }
        guard allowed,
            name.contains(where: DNSSDBytes.isLetter),
            name.first != hyphen, name.last != hyphen,
            !doubleHyphen
        else {
            throw .invalidServiceName(offset: label.offset, name: DNSSDBytes.decode(name))
        }
    }
}
