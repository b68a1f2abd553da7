import CastDiscovery

/// One interface and one address family the querier uses: what it heard there (its cache and
/// what other queriers asked), and the instance copies it reports from there.
struct MDNSLink {
    /// Which link: an interface index and a family.
    struct ID: Hashable, Comparable {
        var interface: Int32
        var ipv6: Bool

        var family: ServiceAddress.Family { ipv6 ? .ipv6 : .ipv4 }

        static func < (lhs: ID, rhs: ID) -> Bool {
            (lhs.interface, lhs.ipv6 ? 1 : 0) < (rhs.interface, rhs.ipv6 ? 1 : 0)
        }
    }

    /// One instance seen on the link: what the querier last reported of it (its browses,
    /// resolution, failure), and the schedule of its resolve: what the querier asks for it and
    /// when.
    struct Copy {
        /// The copy's key, as reported.
        let key: ServiceCopyKey
        /// The browses it was last reported in.
        var browses: Set<String> = []
        /// The resolution last reported; kept when its records expire (the merge keeps it too).
        var reported: ServiceResolution?
        /// Whether its resolve was reported failed since it last resolved.
        var hasFailed = false
        /// Whether the link's cache resolves it now (SRV, TXT and an address); false while it
        /// resolves for the first time and again once those records expired.
        var isResolved = false
        /// When it became unresolved (first seen, or its records expired), for the timeout.
        var since: ContinuousClock.Instant
        /// Follow-up questions sent for what it lacks, and when the next one is due.
        var followUps = 0
        var nextFollowUp: ContinuousClock.Instant
    }

    let id: ID
    var interface: NetworkInterface
    var cache: MDNSCache
    /// What other queriers asked here, and the querier's own recent queries, for duplicate
    /// question suppression.
    var questions = MDNSQuestionHistory()
    /// The queries heard here, made whole across their packets (TC), for both of those.
    var queries = MDNSQueryAssembly()
    var copies: [DNSName: Copy] = [:]
    /// The hosts the link's instances live on (their SRV targets), with the instances on each:
    /// the address records to keep, and whom a new address concerns.
    private(set) var hostInstances: [DNSName: Set<DNSName>] = [:]
    /// Each instance's host, as indexed in ``hostInstances``.
    private var instanceHost: [DNSName: DNSName] = [:]

    /// A link with an empty cache whose refresh points come `cacheJitter` (0 to 0.02 of a TTL)
    /// late.
    init(id: ID, interface: NetworkInterface, cacheJitter: Double) {
        self.id = id
        self.interface = interface
        cache = MDNSCache(refreshJitter: cacheJitter)
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

    /// The copy key of an instance here; nil when the name is not an
    /// instance name.
    func copyKey(_ instance: DNSName) -> ServiceCopyKey? {
        guard let service = ServiceKey(dnsName: instance) else { return nil }
        return ServiceCopyKey(service: service, interfaceIndex: id.interface, transport: id.family)
    }
}
