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

    /// A fresh backend of this kind whose first reports wait long enough for every address on
    /// a loaded machine: dns_sd resolves a few copies at a time, so with the lab suites side by
    /// side its 150 ms hold ran out before a device's other family (1 run in about 10).
    func makeWaitingForEveryAddress() -> any DiscoveryBackend {
        switch self {
        case .dnssd:
            var backend = DNSSDBackend()
            backend.firstReportHold = .seconds(5)
            return backend
        case .mdns:
            // The rule under test is the merge's (a first report waits for the copies that come
            // within the stack's grace), not how fast a loaded machine's responders answer both
            // families: beside other suites a responder was seen to send its IPv6 answer more
            // than 25 ms after its IPv4 one.
            var backend = MDNSBackend()
            backend.firstReportGrace = .seconds(1)
            return backend
        case .avahi:
            return make()
        }
    }

    var testDescription: String { rawValue }
}
