/// The merge of several event streams (``MergedBackend``): which services each source reports,
/// which browses each has finished, and the events of the one merged view.
struct BackendMerger: Sendable {
    private let names: [String]
    private let roles: [MergedBackend.Role]
    /// The sources whose all-for-now ends a browse: those that ask, or every one when none does.
    private let askers: [Int]
    /// The sources whose cache delivery is waited for.
    private let caches: [Int]
    private var ended: Set<Int> = []
    /// Asking sources that failed: they resolve nothing more.
    private var failedAskers: Set<Int> = []
    /// Which services the asking sources resolve, for the cache sources (nil without both kinds).
    private let ledger: ResolutionLedger?
    /// Cache sources whose daemon went away: there is no cache to wait for.
    private var absent: Set<Int> = []
    /// Cache sources no longer waited for: their round passed without their cache.
    private var overdue: Set<Int> = []
    /// The latest service each source reports, by key.
    private var services: [ServiceKey: [Int: DiscoveredService]] = [:]
    private var reported: [ServiceKey: DiscoveredService] = [:]
    /// The services each source announced or resolved, per browse type.
    private var announced: [Int: [String: Set<ServiceKey>]] = [:]
    /// The services a cache source announced that no source has resolved yet.
    private var awaited: [Int: Set<ServiceKey>] = [:]
    private var allForNow: [String: Set<Int>] = [:]
    private var cacheExhausted: [String: Set<Int>] = [:]
    private var started: Set<String> = []
    private var settled: Set<String> = []
    private var cacheDelivered: Set<String> = []
    private var pending: [Int: Int] = [:]
    private var reportedPending: Int?
    private var statistics: [Int: BackendStatistics] = [:]

    /// Creates the merge of sources with these names and roles, in order.
    init(sources: [(name: String, role: MergedBackend.Role)], ledger: ResolutionLedger? = nil) {
        self.ledger = ledger
        names = sources.map(\.name)
        roles = sources.map(\.role)
        let asking = sources.indices.filter { sources[$0].role == .asks }
        askers = asking.isEmpty ? Array(sources.indices) : asking
        caches = sources.indices.filter { sources[$0].role == .cache }
    }

    /// The events `event` from source `index` makes.
    mutating func take(_ event: BackendEvent, from index: Int) -> [BackendEvent] {
        switch event {
        case .found(let service), .updated(let service):
            services[service.key, default: [:]][index] = service
            for type in service.browseTypes { announced[index, default: [:]][type, default: []].insert(service.key) }
            for source in awaited.keys { awaited[source]?.remove(service.key) }
            return report(service.key) + pendingChange()
        case .removed(let service):
            services[service.key]?[index] = nil
            awaited[index]?.remove(service.key)
            for type in service.browseTypes { announced[index]?[type]?.remove(service.key) }
            return report(service.key) + pendingChange()
        case .copyAdded(let copy, let type):
            announced[index, default: [:]][type, default: []].insert(copy.service)
            if roles[index] == .cache, reported[copy.service] == nil { awaited[index, default: []].insert(copy.service) }
            return [event] + pendingChange()
        case .resolveFailed(let key, _):
            awaited[index]?.remove(key)
            return [event] + pendingChange()
        case .browseStarted(let type):
            let progress = milestone(.browseStarted, type, index)
            return started.insert(type).inserted ? [event, progress] : [progress]
        case .allForNow(let type):
            allForNow[type, default: []].insert(index)
            return [milestone(.allForNow, type, index)] + settle(type)
        case .cacheExhausted(let type):
            cacheExhausted[type, default: []].insert(index)
            return [milestone(.cacheExhausted, type, index)] + settle(type)
        case .resolvesPending(let count):
            pending[index] = count
            return pendingChange()
        case .statistics(let counts):
            statistics[index] = counts
            return [.statistics(Self.sum(statistics.values))]
        case .stateChanged(let state):
            var events: [BackendEvent] = []
            // The first source's states are the merge's; another's only when it fails.
            if index == 0 { events.append(event) } else if case .failed = state { events.append(event) }
            if roles[index] == .asks, case .failed = state {
                failedAskers.insert(index)
                closeLedgerIfNoAskerIsLeft()
            }
            guard roles[index] == .cache else { return events }
            switch state {
            case .running:
                absent.remove(index)
            case .daemonLost, .failed:
                guard absent.insert(index).inserted else { break }
                awaited[index] = nil
                events += started.sorted().flatMap { [milestone(.absent, $0, index)] + settle($0) } + pendingChange()
            case .connecting:
                break
            }
            return events
        case .sourceProgress:
            // A merge of merges: the inner merge's steps pass through as they are.
            return [event]
        }
    }

    /// Notes that cache source `index` has not delivered its cache within its round: it is not
    /// waited for any longer (``MergedBackend`` calls this when the round has passed).
    mutating func cacheWaitOver(_ index: Int) -> [BackendEvent] {
        guard roles[index] == .cache, overdue.insert(index).inserted else { return [] }
        return started.sorted().flatMap { type -> [BackendEvent] in
            guard !cacheExhausted[type, default: []].contains(index), !absent.contains(index) else { return [] }
            return [milestone(.cacheWaitOver, type, index)] + settle(type)
        }
    }

    /// Notes that source `index` ended: it waits for nothing more, so the browses it had not
    /// finished are finished for it, and its pending resolves no longer count. Returns the
    /// events that makes, and whether every source has ended.
    mutating func end(_ index: Int) -> (events: [BackendEvent], done: Bool) {
        guard ended.insert(index).inserted else { return ([], ended.count == names.count) }
        pending[index] = nil
        awaited[index] = nil
        closeLedgerIfNoAskerIsLeft()
        var events: [BackendEvent] = []
        for type in started.sorted() { events += settle(type) }
        return (events + pendingChange(), ended.count == names.count)
    }

    /// Closes the ledger once every asking source has ended or failed: the cache sources then
    /// resolve what they left to them.
    private func closeLedgerIfNoAskerIsLeft() {
        guard let ledger else { return }
        if askers.allSatisfy({ ended.contains($0) || failedAskers.contains($0) }) { ledger.close() }
    }

    /// The milestone event of source `index` for `type`.
    private func milestone(_ step: SourceProgress.Milestone, _ type: String, _ index: Int) -> BackendEvent {
        .sourceProgress(SourceProgress(
            source: names[index], role: roles[index], browseType: type, milestone: step,
            services: announced[index]?[type]?.count ?? 0))
    }

    /// The merged cache-exhausted and all-for-now of `type`, each once, when they are due: the
    /// caches have been delivered when every cache source (every source, when none is one) has
    /// delivered its own or is gone; the browse is all-for-now when every asking source has said
    /// all-for-now or ended, and every cache source has delivered its cache, is gone, or is
    /// overdue.
    private mutating func settle(_ type: String) -> [BackendEvent] {
        var events: [BackendEvent] = []
        let said = allForNow[type, default: []], delivered = cacheExhausted[type, default: []]
        // Nothing more of its cache to come: delivered, or the source is done or gone.
        let (ended, absent) = (self.ended, self.absent)
        let hasDelivered = { (index: Int) in
            delivered.contains(index) || said.contains(index) || ended.contains(index) || absent.contains(index)
        }
        if (caches.isEmpty ? Array(names.indices) : caches).allSatisfy(hasDelivered), cacheDelivered.insert(type).inserted {
            events.append(.cacheExhausted(browseType: type))
        }
        let askersDone = askers.allSatisfy { said.contains($0) || ended.contains($0) }
        let daemonsDone = caches.allSatisfy { hasDelivered($0) || overdue.contains($0) }
        if askersDone, daemonsDone, settled.insert(type).inserted { events.append(.allForNow(browseType: type)) }
        return events
    }

    /// The merged pending count when it changed: an asking source's pending resolves, and a
    /// cache source's only up to the number of its services no source has resolved (the
    /// daemon resolving what the querier already has holds nothing up).
    private mutating func pendingChange() -> [BackendEvent] {
        var total = 0
        for (index, count) in pending {
            total += roles[index] == .cache ? min(count, awaited[index]?.count ?? 0) : count
        }
        guard !pending.isEmpty || reportedPending != nil, total != reportedPending else { return [] }
        reportedPending = total
        return [.resolvesPending(total)]
    }

    /// The merged view of `key` against what was reported: found, updated, removed or nothing.
    /// The first source's service leads; addresses are the union, and the known host comes from
    /// whichever source asked one.
    private mutating func report(_ key: ServiceKey) -> [BackendEvent] {
        let sources = services[key] ?? [:]
        ledger?.set(key, resolved: sources.keys.contains { roles[$0] == .asks })
        var merged: DiscoveredService?
        for index in sources.keys.sorted() {
            guard let service = sources[index] else { continue }
            guard var current = merged else {
                merged = service
                continue
            }
            // The same address from two sources once (the first one's, with its interface).
            for address in service.service.addresses
            where !current.service.addresses.contains(where: { $0.ip == address.ip && $0.zone == address.zone }) {
                current.service.addresses.append(address)
            }
            current.service.knownHost = current.service.knownHost ?? service.service.knownHost
            current.browseTypes.formUnion(service.browseTypes)
            merged = current
        }
        if sources.isEmpty { services[key] = nil }
        switch (reported[key], merged) {
        case (nil, let new?):
            reported[key] = new
            return [.found(new)]
        case (let old?, let new?) where old != new:
            reported[key] = new
            return [.updated(new)]
        case (let old?, nil):
            reported[key] = nil
            return [.removed(old)]
        default:
            return []
        }
    }

    private static func sum(_ all: some Sequence<BackendStatistics>) -> BackendStatistics {
        var total = BackendStatistics()
        for counts in all {
            total.packetsReceived += counts.packetsReceived
            total.malformedPackets += counts.malformedPackets
            total.offLinkPackets += counts.offLinkPackets
            total.ignoredPackets += counts.ignoredPackets
            total.droppedRecords += counts.droppedRecords
            total.queriesSent += counts.queriesSent
            total.suppressedQueries += counts.suppressedQueries
            total.coalescedEvents += counts.coalescedEvents
            if let hosts = counts.unansweredHosts { total.unansweredHosts = (total.unansweredHosts ?? []) + hosts }
        }
        return total
    }
}
