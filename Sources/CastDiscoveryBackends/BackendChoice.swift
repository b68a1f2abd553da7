import CastDiscovery
import CastDiscoveryDNSSD
import CastDiscoveryMDNS

#if canImport(CastDiscoveryAvahi)
import CastDiscoveryAvahi
#endif

/// Which discovery backend to use: one by name, or the first that works.
public enum BackendChoice: String, Sendable, Hashable, CaseIterable {
    /// The mDNS querier, beside avahi-daemon's cache when the daemon answers on D-Bus and the
    /// querier can share port 5353 with it (`mdns+avahi`); the daemon alone when the port cannot
    /// be shared; the querier alone without a daemon.
    case auto
    /// avahi-daemon over D-Bus (`AvahiBackend`).
    case avahi
    /// The package's own mDNS querier (`MDNSBackend`), which needs no daemon.
    case mdns
    /// Apple's DNS Service Discovery API (`DNSSDBackend`): Avahi's compatibility library
    /// over avahi-daemon on Linux, mDNSResponder on Apple platforms.
    case dnssd
    /// Only the known hosts (`KnownHostsBackend`): no multicast at all.
    case hosts

    /// The backend this choice gives on this machine now, with its name and why it was chosen.
    ///
    /// With `knownHosts`, those hosts are asked as well (merged with `MergedBackend`);
    /// `.hosts` asks only them.
    ///
    /// - Throws: the `DiscoveryError` of avahi-daemon when `.avahi` was asked for and it cannot
    ///   be used (`.auto` then falls back instead); `.badInput` for `.hosts` without hosts.
    public func select(
        interfaceName: String? = nil, families: Set<ServiceAddress.Family> = [.ipv4, .ipv6],
        knownHosts: KnownHostsBackend? = nil
    ) throws(DiscoveryError) -> BackendSelection {
        if self == .hosts {
            guard let knownHosts else {
                throw DiscoveryError(
                    kind: .badInput, message: "--backend hosts asks only the known hosts, and none was given",
                    fix: "give --host ADDRESS (repeatable)")
            }
            return BackendSelection(
                backend: knownHosts, name: "hosts",
                reason: "asked for with --backend hosts: only \(Self.count(knownHosts.hosts))")
        }
        var selection = try multicast(interfaceName: interfaceName, families: families)
        guard let knownHosts else { return selection }
        let hosts = MergedBackend.Source("hosts", knownHosts, role: .asks)
        if let merged = selection.backend as? MergedBackend {
            selection.backend = MergedBackend(merged.sources + [hosts])
        } else {
            selection.backend = MergedBackend([
                MergedBackend.Source(selection.name, selection.backend, role: .asks), hosts,
            ])
        }
        selection.name += "+hosts"
        selection.reason += "; and \(Self.count(knownHosts.hosts)) asked directly with --host"
        return selection
    }

    private static func count(_ hosts: [String]) -> String {
        hosts.count == 1 ? "1 known host" : "\(hosts.count) known hosts"
    }

    private func multicast(interfaceName: String?, families: Set<ServiceAddress.Family>) throws(DiscoveryError)
        -> BackendSelection
    {
        let mdns = MDNSBackend(interfaceName: interfaceName, families: families)
        switch self {
        case .hosts, .mdns:
            return BackendSelection(backend: mdns, name: "mdns", reason: "asked for with --backend mdns")
        case .dnssd:
            let dnssd = DNSSDBackend(interfaceName: interfaceName, families: families)
            if let error = dnssd.unavailability() { throw error }
            return BackendSelection(backend: dnssd, name: "dnssd", reason: "asked for with --backend dnssd")
        #if canImport(CastDiscoveryAvahi)
        case .avahi:
            if let error = AvahiBackend.unavailability() { throw error }
            return BackendSelection(backend: AvahiBackend(), name: "avahi", reason: "asked for with --backend avahi")
        case .auto:
            if let error = AvahiBackend.unavailability() {
                return BackendSelection(
                    backend: mdns, name: "mdns", reason: "\(error.message); the built-in mDNS querier needs no daemon")
            }
            if let error = mdns.sharingUnavailability() {
                return BackendSelection(
                    backend: AvahiBackend(), name: "avahi",
                    reason: "avahi-daemon answers on D-Bus, but the mDNS querier cannot run beside it: \(error.message)"
                )
            }
            return Self.beside(mdns, daemon: AvahiBackend(), named: "avahi", reason: "avahi-daemon answers on D-Bus")
        #else
        case .avahi:
            throw DiscoveryError(
                kind: .discoveryServiceMissing, message: "the Avahi backend exists on Linux only",
                fix: "use --backend dnssd or mdns")
        case .auto:
            let dnssd = DNSSDBackend(interfaceName: interfaceName, families: families)
            if dnssd.unavailability() != nil || mdns.sharingUnavailability() != nil {
                return BackendSelection(
                    backend: mdns, name: "mdns", reason: "the built-in mDNS querier needs no daemon")
            }
            return Self.beside(mdns, daemon: dnssd, named: "dnssd", reason: "the dns_sd daemon answers")
        #endif
        }
    }

    /// The querier asking the network beside a daemon read for its cache.
    private static func beside(
        _ mdns: MDNSBackend, daemon: any DiscoveryBackend, named name: String, reason: String
    ) -> BackendSelection {
        let merged = MergedBackend([
            MergedBackend.Source("mdns", mdns, role: .asks), MergedBackend.Source(name, daemon, role: .cache),
        ])
        return BackendSelection(
            backend: merged, name: "mdns+\(name)",
            reason: "\(reason): the built-in mDNS querier asks the network while the daemon's cache answers at once")
    }
}

/// A chosen backend, its name (`avahi`, `mdns`) and why it was chosen.
public struct BackendSelection: Sendable {
    /// The backend.
    public var backend: any DiscoveryBackend
    /// Its name, as `--backend` and `scan.backend` in JSON write it.
    public var name: String
    /// Why it was chosen, in a few words.
    public var reason: String

    /// Creates a selection.
    public init(backend: any DiscoveryBackend, name: String, reason: String) {
        self.backend = backend
        self.name = name
        self.reason = reason
    }
}
