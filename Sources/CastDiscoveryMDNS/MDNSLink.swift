import CastDiscovery

/// One interface and one address family the querier uses: what it heard there (its cache) and
/// the instance copies it reports from there.
struct MDNSLink {
    /// Which link: an interface index and a family.
    struct ID: Hashable, Comparable {
        var interface: Int32
        var ipv6: Bool

        var family: ServiceAddress.Family { ipv6 ? .ipv6 : .ipv4 }

        static func < (lhs: ID, rhs: ID) -> Bool { (lhs.interface, lhs.ipv6 ? 1 : 0) < (rhs.interface, rhs.ipv6 ? 1 : 0) }
    }

    /// One instance seen on the link, and how its resolution goes.
    struct Copy {
        /// The browse types that report it here.
        var browses: Set<String> = []
        /// The resolution last reported.
        var reported: ServiceResolution?
        /// When it was first seen, for the resolve timeout.
        var since: ContinuousClock.Instant
        /// Whether its resolve was reported failed (it may still resolve later).
        var failed = false
        /// Follow-up questions sent for what it lacks, and when the next one is due.
        var followUps = 0
        var nextFollowUp: ContinuousClock.Instant
    }

    let id: ID
    var interface: NetworkInterface
    var cache = MDNSCache()
    var copies: [DNSName: Copy] = [:]
    /// The hosts the link's instances live on (their SRV targets), with the instances on each:
    /// the address records to keep, and whom a new address concerns.
    private(set) var hostInstances: [DNSName: Set<DNSName>] = [:]
    /// Each instance's host, as indexed in ``hostInstances``.
    private var instanceHost: [DNSName: DNSName] = [:]

    init(id: ID, interface: NetworkInterface) {
        self.id = id
        self.interface = interface
    }

    /// Records that `instance` lives on `host` (nil: on no known host).
    mutating func setHost(_ host: DNSName?, of instance: DNSName) {
        let old = instanceHost[instance]
        guard old != host else { return }
        if let old {
            hostInstances[old]?.remove(instance)
            if hostInstances[old]?.isEmpty == true { hostInstances[old] = nil }
        }
        instanceHost[instance] = host
        if let host { hostInstances[host, default: []].insert(instance) }
    }

    /// The copy key of an instance here, for the aggregator; nil when the name is not an
    /// instance name.
    func copyKey(_ instance: DNSName) -> ServiceCopyKey? {
        guard let service = ServiceKey(dnsName: instance) else { return nil }
        return ServiceCopyKey(service: service, interfaceIndex: id.interface, transport: id.family)
    }
}
