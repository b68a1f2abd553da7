/// The transport label of a DNS-SD service type (RFC 6763 section 7).
public enum ServiceTransport: String, Sendable, Hashable, CaseIterable {
    /// `_tcp`: the service runs over TCP.
    case tcp
    /// `_udp`: any other transport (RFC 6763 uses `_udp` for everything that is not TCP).
    case udp

    /// The label as it appears in a name: `_tcp` or `_udp`.
    public var label: String { "_" + rawValue }

    /// The transport named by `label` (`_tcp` or `_udp`, any letter case), or `nil`.
    public init?(label: String) {
        switch DNSSDBytes.asciiLowercased(label) {
        case "_tcp": self = .tcp
        case "_udp": self = .udp
        default: return nil
        }
    }
}
