/// The JSON form of a ``DiscoveredService`` in a replay file.
struct ReplayService: Codable, Sendable {
    struct Address: Codable, Sendable {
        var address: String
        var interface: String?
        var interfaceIndex: Int32?
    }

    var instance: String
    var type: String?
    var domain: String?
    var host: String
    var port: Int
    var addresses: [Address]?
    var txt: [String]?
    var txtHex: [String]?
    var browseTypes: [String]?
    var knownHost: String?

    init(_ discovered: DiscoveredService) {
        let service = discovered.service
        instance = service.instanceName
        type = service.serviceType == .googleCast ? nil : service.serviceType.typeString
        domain = service.domain == "local" ? nil : service.domain
        host = service.hostName
        port = Int(service.port)
        addresses = service.addresses.map {
            Address(address: $0.address, interface: $0.interfaceName, interfaceIndex: $0.interfaceIndex)
        }
        let strings = service.txt.entries.map(\.bytes)
        if strings.allSatisfy({ String(validating: $0, as: UTF8.self) != nil }) {
            txt = strings.map { String(decoding: $0, as: UTF8.self) }
        } else {
            txtHex = strings.map { $0.map { byte in String(byte, radix: 16).leftPadded(to: 2) }.joined() }
        }
        browseTypes = discovered.browseTypes.sorted()
        knownHost = service.knownHost
    }

    /// The service; `path` names the field in messages.
    func discoveredService(path: String) throws(DiscoveryError) -> DiscoveredService {
        let serviceType = try ReplayRecording.serviceType(type, path: "\(path).type")
        guard let port = UInt16(exactly: port) else {
            throw ReplayRecording.badInput("\(path).port: \(self.port) is not a port number (0-65535)")
        }
        let record: TXTRecord
        switch (txt, txtHex) {
        case (_?, _?):
            throw ReplayRecording.badInput("\(path): give txt or txtHex, not both")
        case (let strings?, nil):
            record = TXTRecord(strings: strings.map { Array($0.utf8) })
        case (nil, let hex?):
            var strings: [[UInt8]] = []
            for (index, text) in hex.enumerated() {
                guard let bytes = HexText.bytes(text) else {
                    throw ReplayRecording.badInput("\(path).txtHex[\(index)]: not an even number of hex digits")
                }
                strings.append(bytes)
            }
            record = TXTRecord(strings: strings)
        case (nil, nil):
            record = TXTRecord(strings: [])
        }
        var parsed: [ServiceAddress] = []
        for (index, address) in (addresses ?? []).enumerated() {
            guard
                let typed = ServiceAddress(
                    address.address, interfaceName: address.interface, interfaceIndex: address.interfaceIndex)
            else {
                throw ReplayRecording.badInput(
                    "\(path).addresses[\(index)].address: \(SafeText.quoted(address.address)) is not an IPv4 or IPv6 address"
                )
            }
            parsed.append(typed)
        }
        let resolved = ResolvedService(
            instanceName: instance, serviceType: serviceType, domain: domain ?? "local", hostName: host, port: port,
            addresses: parsed, txt: record, knownHost: knownHost)
        return DiscoveredService(service: resolved, browseTypes: Set(browseTypes ?? [DiscoveryCriteria.serviceType]))
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
