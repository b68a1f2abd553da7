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
/// - For a backend that several stacks answer (``DiscoveryBackend/scanSources``), a browse's
///   caches are **delivered** when every source read for its cache (every source, when none is)
///   has delivered its own, said all-for-now, or is gone; the browse is **all-for-now** when every
///   source that asks (every source, when none does) has said all-for-now or is gone, and every
///   source read for its cache has delivered it, is gone, or has let its query round from the
///   start of the scan pass without it. Each is decided here, once, from the sources' steps
///   (``SourceProgress``), and handed back in ``Update/reached``.
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

    /// What one event, or one instant, changed.
    public struct Update: Sendable, Hashable {
        /// Where the scan stands.
        public var status: Status
        /// The browses that settled, in the order of ``browseTypes``.
        public var settled: [BrowseSettlement]
        /// The merged browses' milestones reached (``BackendEvent/cacheExhausted(browseType:)``,
        /// then ``BackendEvent/allForNow(browseType:)``, each once a browse), as the events a
        /// single stack would have sent; empty for a backend that is one stack.
        public var reached: [BackendEvent]
        /// When something may change if no event comes first: the status's instant, or a
        /// source's round ending after the scan completed; nil when only an event can.
        public var nextCheck: ContinuousClock.Instant?
    }

    private struct Browse: Sendable {
        var began: ContinuousClock.Instant
        var lastNew: ContinuousClock.Instant?
        var cacheDelivered: ContinuousClock.Instant?
        var allForNow: ContinuousClock.Instant?
        var reported: Set<ServiceKey> = []
        var fromCache: Int?
        var settlement: BrowseSettlement?
        /// The sources of a merged backend: those declared, in the merge's order, then any
        /// other that reported a step. Kept up to date after the browse settled.
        var sources: [SourceSettlement] = []
        /// The merged milestones reached (a merged backend only).
        var reached: Set<SourceProgress.Milestone> = []

        var quietFrom: ContinuousClock.Instant { max(began, lastNew ?? began) }
    }

    /// The browses the scan runs, as given.
    public let browseTypes: [String]
    /// The query round the rule waits for.
    public let round: Duration
    /// When the scan started.
    public let start: ContinuousClock.Instant
    /// The sources the backend merges, as declared; empty for a backend that is one stack.
    public let sources: [ScanSource]
    private var browses: [String: Browse] = [:]
    /// ``browseTypes`` lower-cased: the keys of ``browses``, in order.
    private let browseKeys: [String]
    /// The names of the sources that ask the network (every source, when none does).
    private let askerNames: Set<String>
    /// The names of the sources read for their cache (every source, when none is).
    private let cacheNames: Set<String>
    private var pendingResolves = 0
    /// Whether the scan has completed (it stays complete).
    public private(set) var isComplete = false

    /// Starts tracking a scan of `browseTypes` that began at `start`, with the backend's
    /// `round` and, for a backend that merges several stacks, its `sources`.
    public init(
        browseTypes: [String], round: Duration, sources: [ScanSource] = [], start: ContinuousClock.Instant = .now
    ) {
        self.browseTypes = browseTypes
        self.round = round
        self.sources = sources
        self.start = start
        browseKeys = browseTypes.map { $0.lowercased() }
        let asking = sources.filter { $0.role == .asks }.map(\.name)
        let caching = sources.filter { $0.role == .cache }.map(\.name)
        askerNames = Set(asking.isEmpty ? sources.map(\.name) : asking)
        cacheNames = Set(caching.isEmpty ? sources.map(\.name) : caching)
        let declared = sources.map { SourceSettlement(source: $0.name, role: $0.role) }
        for key in browseKeys { browses[key] = Browse(began: start, sources: declared) }
    }

    /// What settled each browse so far, in the order of ``browseTypes``; a browse that has not
    /// settled has no ``BrowseSettlement/reason``.
    public var settlements: [BrowseSettlement] {
        browseTypes.map { type in
            let browse = browses[type.lowercased()]
            return browse?.settlement
                ?? BrowseSettlement(
                    browseType: type, reason: nil, after: nil,
                    cacheDeliveredAfter: browse?.cacheDelivered.map { $0 - start },
                    services: browse?.reported.count ?? 0, servicesFromCache: browse.flatMap(Self.fromCache),
                    sources: browse?.sources ?? [])
        }
    }

    /// Records a backend event that happened at `now`; returns what that changed.
    public mutating func record(_ event: BackendEvent, at now: ContinuousClock.Instant) -> Update {
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
            // Kept after the browse settled too: the merged all-for-now may come later.
            let (key, after) = (step.browseType.lowercased(), now - start)
            // Taken out while changed, so its tables are not copied (as in ``update(_:_:)``).
            guard var browse = browses.removeValue(forKey: key) else { break }
            if let index = browse.sources.firstIndex(where: { $0.source == step.source }) {
                browse.sources[index].record(step, after: after)
            } else {
                var source = SourceSettlement(source: step.source, role: step.role)
                source.record(step, after: after)
                browse.sources.append(source)
            }
            browses[key] = browse
        case .removed, .stateChanged, .resolveFailed, .statistics, .copyRemoved, .copyResolved, .copyAddressesComplete,
            .copyFailed, .copyLimit:
            // What the merge makes of the copies comes as the events above.
            break
        }
        return status(at: now)
    }

    /// Where the scan stands at `now`: decides the merged milestones due, settles what has
    /// settled, and marks the scan complete when it is.
    public mutating func status(at now: ContinuousClock.Instant) -> Update {
        var settled: [BrowseSettlement] = []
        var reached: [BackendEvent] = []
        var next: ContinuousClock.Instant?
        for (type, key) in zip(browseTypes, browseKeys) {
            guard var browse = browses.removeValue(forKey: key) else { continue }
            if !sources.isEmpty { reached += decideMerged(&browse, type, at: now, next: &next) }
            if browse.settlement == nil {
                settle(&browse, type, at: now, next: &next)
                if let settlement = browse.settlement { settled.append(settlement) }
            }
            browses[key] = browse
        }
        if !isComplete, pendingResolves == 0, browses.values.allSatisfy({ $0.settlement != nil }) {
            isComplete = true
        }
        let status = isComplete ? Status.complete : next.map(Status.waitingUntil) ?? .waiting
        return Update(status: status, settled: settled, reached: reached, nextCheck: next)
    }

    /// Settles `browse` when its all-for-now has come, or its cache has been delivered and a
    /// quiet round has passed with no resolve pending; else notes when the round ends.
    private func settle(
        _ browse: inout Browse, _ type: String, at now: ContinuousClock.Instant, next: inout ContinuousClock.Instant?
    ) {
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
    }

    /// The merged milestones of `browse` that are due at `now` and were not reached before, as
    /// events; marks the sources read for their cache whose round passed without it, and notes
    /// when the next such round ends.
    private func decideMerged(
        _ browse: inout Browse, _ type: String, at now: ContinuousClock.Instant, next: inout ContinuousClock.Instant?
    ) -> [BackendEvent] {
        var events: [BackendEvent] = []
        for index in browse.sources.indices where browse.sources[index].role == .cache {
            let source = browse.sources[index]
            guard !source.hasNoCacheToCome, source.cacheWaitOverAfter == nil,
                let round = sources.first(where: { $0.name == source.source })?.round
            else { continue }
            let due = start + round
            if now >= due {
                browse.sources[index].cacheWaitOverAfter = round
            } else if !browse.reached.contains(.allForNow) {
                next = min(next ?? due, due)
            }
        }
        // Of the sources named, whether the caches are delivered, the askers done, the daemons
        // done (delivered, or their round passed).
        var (delivered, askersDone, daemonsDone) = (true, true, true)
        for source in browse.sources {
            let (isAsker, isCache) = (askerNames.contains(source.source), cacheNames.contains(source.source))
            guard isAsker || isCache else { continue }
            if isCache, !source.hasNoCacheToCome { delivered = false }
            if isAsker, !source.isDoneAsking { askersDone = false }
            if source.role == .cache, !source.hasNoCacheToCome, source.cacheWaitOverAfter == nil { daemonsDone = false }
        }
        if delivered, browse.reached.insert(.cacheExhausted).inserted {
            events.append(.cacheExhausted(browseType: type))
            if browse.settlement == nil, browse.cacheDelivered == nil {
                browse.cacheDelivered = now
                browse.fromCache = browse.reported.count
            }
        }
        if askersDone, daemonsDone, browse.reached.insert(.allForNow).inserted {
            events.append(.allForNow(browseType: type))
            if browse.settlement == nil, browse.allForNow == nil { browse.allForNow = now }
        }
        return events
    }

    /// How many of a browse's services came from a cache: the daemons' own counts when the
    /// backend is a merge with daemons read for their cache (what the merge had reported by then
    /// includes the querier's answers), else what had been reported when the cache was delivered.
    private static func fromCache(_ browse: Browse) -> Int? {
        let daemons = browse.sources.filter { $0.role == .cache }
        guard !daemons.isEmpty else { return browse.fromCache }
        return daemons.compactMap(\.servicesFromCache).max()
    }

    /// Changes the unsettled browse of `type`. It is taken out of the table while it changes:
    /// a copy left in the table would make every change copy its set of reported services.
    private mutating func update(_ type: String, _ change: (inout Browse) -> Void) {
        // Browse types come as given, lower-case as a rule: lower-cased only when not found so.
        let key = browses[type] != nil ? type : type.lowercased()
        guard var browse = browses.removeValue(forKey: key) else { return }
        if browse.settlement == nil { change(&browse) }
        browses[key] = browse
    }
}
