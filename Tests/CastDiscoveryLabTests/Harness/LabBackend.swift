import CastDiscovery
import CastDiscoveryAvahi
import CastDiscoveryDNSSD
import CastDiscoveryMDNS
import Testing

/// The backends every lab behaviour is tested with: Avahi and dns_sd (both through the sender
/// namespace's avahi-daemon) and the built-in mDNS querier (no daemon).
enum LabBackend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case avahi
    case mdns
    case dnssd

    /// A fresh backend of this kind.
    func make() -> any DiscoveryBackend {
        switch self {
        case .avahi: AvahiBackend()
        case .mdns: MDNSBackend()
        case .dnssd: DNSSDBackend()
        }
    }

    var testDescription: String { rawValue }
}
