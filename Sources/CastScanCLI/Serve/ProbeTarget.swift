import CastDiscovery

/// What `/probe?target=` names: an address literal and a port (8009, the Cast port, when none
/// is given): `10.0.0.5`, `10.0.0.5:8009`, `[fd00::5]:8009`. Host names are not taken: a probe
/// reaches addresses `serve` listed or `--probe-allow` allows, and a name could resolve to any.
struct ProbeTarget: Sendable, Hashable, CustomStringConvertible {
    var address: ServiceAddress.IP
    var port: UInt16

    /// The target in `text`; nil when it is not one.
    init?(_ text: String) {
        guard (1...64).contains(text.utf8.count) else { return nil }
        var host = Substring(text)
        var port: UInt16 = 8009
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let parsed = Self.port(rest.dropFirst()) else { return nil }
                port = parsed
            }
            guard let v6 = IPv6Address(String(host)) else { return nil }
            address = .v6(v6)
        } else {
            if let colon = host.lastIndex(of: ":") {
                guard let parsed = Self.port(host[host.index(after: colon)...]) else { return nil }
                port = parsed
                host = host[..<colon]
            }
            guard let v4 = IPv4Address(String(host)) else { return nil }
            address = .v4(v4)
        }
        self.port = port
    }

    private static func port(_ text: Substring) -> UInt16? {
        guard (1...5).contains(text.utf8.count), text.allSatisfy({ $0.isASCII && $0.isNumber }),
            let value = UInt16(text), value > 0
        else { return nil }
        return value
    }

    /// The host as the channel connects to it.
    var host: String { "\(address)" }

    var description: String {
        switch address {
        case .v4: "\(address):\(port)"
        case .v6: "[\(address)]:\(port)"
        }
    }
}

/// An address range of `--probe-allow`: `10.0.0.0/8`, `fd00::/8`, or one address.
struct AddressRange: Sendable, Hashable, CustomStringConvertible {
    var network: ServiceAddress.IP
    var prefixLength: Int

    /// The range in `text`; nil when it is not `ADDRESS[/LENGTH]` with a length the family allows.
    init?(_ text: String) {
        guard text.utf8.count <= 64 else { return nil }
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        if let v4 = IPv4Address(String(parts[0])) {
            network = .v4(v4)
        } else if let v6 = IPv6Address(String(parts[0])) {
            network = .v6(v6)
        } else {
            return nil
        }
        let limit = network.bitCount
        if parts.count == 2 {
            guard (1...3).contains(parts[1].utf8.count), parts[1].allSatisfy({ $0.isASCII && $0.isNumber }),
                let length = Int(parts[1]), length <= limit
            else { return nil }
            prefixLength = length
        } else {
            prefixLength = limit
        }
    }

    /// Whether `address` is in the range (never across families).
    func contains(_ address: ServiceAddress.IP) -> Bool {
        switch (network, address) {
        case (.v4(let network), .v4(let address)):
            let mask: UInt32 = prefixLength == 0 ? 0 : ~0 << UInt32(32 - prefixLength)
            return network.value & mask == address.value & mask
        case (.v6(let network), .v6(let address)):
            let highBits = min(prefixLength, 64), lowBits = max(0, prefixLength - 64)
            let highMask: UInt64 = highBits == 0 ? 0 : ~0 << UInt64(64 - highBits)
            let lowMask: UInt64 = lowBits == 0 ? 0 : ~0 << UInt64(64 - lowBits)
            return network.high & highMask == address.high & highMask && network.low & lowMask == address.low & lowMask
        default:
            return false
        }
    }

    var description: String { "\(network)/\(prefixLength)" }
}

extension ServiceAddress.IP {
    /// 32 or 128.
    var bitCount: Int {
        switch self {
        case .v4: 32
        case .v6: 128
        }
    }
}
