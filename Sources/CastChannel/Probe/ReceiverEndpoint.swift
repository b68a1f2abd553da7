import CastDiscovery

/// A receiver's host and Cast channel port, read from `HOST`, `HOST:PORT`, an IPv6 address
/// (`fe80::1%eth0`) or `[IPV6]:PORT`; the port is 8009 when none is given.
public struct ReceiverEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The host: an address or a name, as given (brackets taken off).
    public var host: String
    /// The port, 1 to 65535.
    public var port: UInt16

    /// Creates an endpoint.
    public init(host: String, port: UInt16 = ReceiverProbe.defaultPort) {
        self.host = host
        self.port = port
    }

    /// Reads `text`; nil when it is not a host with an optional port: empty, a port that is not
    /// 1 to 65535, brackets that do not close, a host with spaces or a character the package's
    /// text rules call unsafe (`TextSafety`: controls, bidirectional and invisible ones), or a
    /// host over 253 bytes (a DNS name's limit).
    public init?(parsing text: String) {
        var host = Substring(text)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            guard host.contains(":") else { return nil }
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        // More than one colon without brackets: an IPv6 address, no port.
        guard !host.isEmpty, host.utf8.count <= 253, !host.contains(" "), !TextSafety.containsUnsafe(String(host))
        else { return nil }
        var port = ReceiverProbe.defaultPort
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = UInt16(portText), value > 0
            else {
                return nil
            }
            port = value
        }
        self.init(host: String(host), port: port)
    }

    /// `host:port`, with brackets around an IPv6 address.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
