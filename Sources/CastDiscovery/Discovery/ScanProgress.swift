/// Tells when a scan has everything the network had to say for now, and what settled each
/// browse.
///
/// The rule, right by construction:
///
/// - A browse has **settled** when its all-for-now has arrived; or when its cache has been
///   delivered and one full query round (``DiscoveryBackend/queryRound``) has passed since the
///   browse began, and since anything new last arrived for it, with nothing new arriving.
///   *New* for a browse is an instance copy (interface × address family) it had not reported,
///   which includes a service known from another browse that this browse reports for the first
///   time.
/// - A scan is **complete** when every browse has settled and no resolve is pending.
///
/// The round covers the stack's own delay before its first query plus the responders' delay
/// before they answer (avahi-daemon: 100 ms + 120 ms + 5 ms, measured in the lab): every
/// responder that answers the stack's first query has answered by then. A daemon that already
/// knows every device thus gives a complete list one round after the browse starts; one whose
/// cache holds only some answers still hears the rest in time; a cold one keeps delivering news
/// until all-for-now or a quiet round. A packet lost on the way is recovered only by the
/// stack's next query, a second later: a one-shot scan can miss such a device, a live watch
/// reports it then.
public struct ScanProgress: Sendable {
    /// Where a scan stands.
    public enum Status: Sendable, Hashable {
        /// Not complete; nothing to wait for but more events.
        case waiting
        /// Not complete; something may settle at this instant if no news arrives first.
        case waitingUntil(ContinuousClock.Instant)
        /// Complete.
        case complete
    }

    private struct Browse: Sendable {
        var began: ContinuousClock.Instant
        var lastNew: ContinuousClock.Instant?
        var cacheDelivered: ContinuousClock.Instant?
        var allForNow: ContinuousClock.Instant?
        var reported: Set<ServiceKey> = []
        var fromCache: Int?
        var settlement: BrowseSettlement?
        /// The sources of a merged backend, in the order they first reported.
        var sources: [SourceSettlement] = []

        var quietFrom: ContinuousClock.Instant { max(began, lastNew ?? began) }
    }

    /// The browses the scan runs, as given.
    public let browseTypes: [String]
    /// The query round the rule waits for.
    public let round: Duration
    /// When the scan started.
    public let start: ContinuousClock.Instant
    private var browses: [String: Browse] = [:]
    private var pendingResolves = 0
    /// Whether the scan has completed (it stays complete).
    public private(set) var isComplete = false

    /// Starts tracking a scan of `browseTypes` that began at `start`, with the backend's
    /// `round`.
    public init(browseTypes: [String], round: Duration, start: ContinuousClock.Instant = .now) {
        self.browseTypes = browseTypes
        self.round = round
        self.start = start
        for type in browseTypes { browses[type.lowercased()] = Browse(began: start) }
    }

    /// What settled each browse so far, in the order of ``browseTypes``; a browse that has not
    /// settled has no ``BrowseSettlement/reason``.
    public var settlements: [BrowseSettlement] {
        browseTypes.map { type in
            let browse = browses[type.lowercased()]
            return browse?.settlement
                ?? BrowseSettlement(
                    browseType: type, reason: nil, after: nil, cacheDeliveredAfter: browse?.cacheDelivered.map { $0 - start },
                    services: browse?.reported.count ?? 0, servicesFromCache: browse.flatMap(Self.fromCache),
                    sources: browse?.sources ?? [])
        }
    }

    /// Records a backend event that happened at `now`; returns where the scan stands and the
    /// browses that settled.
    public mutating func record(_ event: BackendEvent, at now: ContinuousClock.Instant) -> (
        status: Status, settled: [BrowseSettlement]
    ) {
        switch event {
        case .browseStarted(let type):
            update(type) { browse in
                // A browse made again (the daemon came back) starts a new round.
                browse = Browse(began: now, reported: browse.reported, fromCache: nil, sources: browse.sources)
            }
        case .copyAdded(let copy, let type):
            update(type) { browse in
                browse.lastNew = now
                browse.reported.insert(copy.service)
            }
        case .found(let service), .updated(let service):
            for type in service.browseTypes {
                update(type) { browse in
                    if browse.reported.insert(service.key).inserted { browse.lastNew = now }
                }
            }
        case .cacheExhausted(let type):
            update(type) { browse in
                if browse.cacheDelivered == nil {
                    browse.cacheDelivered = now
                    browse.fromCache = browse.reported.count
                }
            }
        case .allForNow(let type):
            update(type) { browse in
                if browse.allForNow == nil { browse.allForNow = now }
            }
        case .resolvesPending(let count):
            pendingResolves = count
        case .sourceProgress(let step):
            let after = now - start
            update(step.browseType) { browse in
                if let index = browse.sources.firstIndex(where: { $0.source == step.source }) {
                    browse.sources[index].record(step, after: after)
                } else {
                    var source = SourceSettlement(source: step.source, role: step.role)
                    source.record(step, after: after)
                    browse.sources.append(source)
                }
            }
        case .removed, .stateChanged, .resolveFailed, .statistics:
            break
        }
        return status(at: now)
    }

    /// Where the scan stands at `now`; settles what has settled and marks the scan complete
    /// when it is. Returns the browses that settled with this call.
    public mutating func status(at now: ContinuousClock.Instant) -> (status: Status, settled: [BrowseSettlement]) {
        var settled: [BrowseSettlement] = []
        var next: ContinuousClock.Instant?
        for type in browseTypes {
            let key = type.lowercased()
            guard var browse = browses[key], browse.settlement == nil else { continue }
            let cache = browse.cacheDelivered.map { $0 - start }
            if let allForNow = browse.allForNow {
                browse.settlement = BrowseSettlement(
                    browseType: type, reason: .allForNow, after: allForNow - start, cacheDeliveredAfter: cache,
                    services: browse.reported.count, servicesFromCache: Self.fromCache(browse), sources: browse.sources)
            } else if browse.cacheDelivered != nil {
                let end = browse.quietFrom + round
                if now >= end, pendingResolves == 0 {
                    browse.settlement = BrowseSettlement(
                        browseType: type, reason: .quietRound, after: end - start, cacheDeliveredAfter: cache,
                        services: browse.reported.count, servicesFromCache: Self.fromCache(browse), sources: browse.sources)
                } else if now < end {
                    next = min(next ?? end, end)
                }
            }
            if let settlement = browse.settlement { settled.append(settlement) }
            browses[key] = browse
        }
        if isComplete { return (.complete, settled) }
        if pendingResolves == 0, browses.values.allSatisfy({ $0.settlement != nil }) {
            isComplete = true
            return (.complete, settled)
        }
        return (next.map(Status.waitingUntil) ?? .waiting, settled)
    }

    /// How many of a browse's services came from a cache: the daemons' own counts when the
    /// backend is a merge with daemons read for their cache (what the merge had reported by then
    /// includes the querier's answers), else what had been reported when the cache was delivered.
    private static func fromCache(_ browse: Browse) -> Int? {
        let daemons = browse.sources.filter { $0.role == .cache }
        guard !daemons.isEmpty else { return browse.fromCache }
        return daemons.compactMap(\.servicesFromCache).max()
    }

    private mutating func update(_ type: String, _ change: (inout Browse) -> Void) {
        let key = type.lowercased()
        guard var browse = browses[key], browse.settlement == nil else { return }
        change(&browse)
        browses[key] = browse
    }
}
