/// The merge of several event streams (``MergedBackend``): which services each source reports,
/// the events of the one merged view, and each source's steps. When the merged browse is
/// all-for-now is not decided here but by the scan, from those steps (``ScanProgress``).
struct BackendMerger: Sendable {
    private let names: [String]
    private let roles: [MergedBackend.Role]
    /// The sources that ask the network, or every one when none does: once none of them is
    /// left, the daemons resolve what they left to them.
    private let askers: [Int]
    private var ended: Set<Int> = []
    /// Asking sources that failed: they resolve nothing more.
    private var failedAskers: Set<Int> = []
    /// Which services the asking sources resolve, for the cache sources (nil without both kinds).
    private let ledger: ResolutionLedger?
    /// Cache sources whose daemon went away: there is no cache to wait for.
    private var absent: Set<Int> = []
    /// The latest service each source reports, by key.
    private var services: [ServiceKey: [Int: DiscoveredService]] = [:]
    private var reported: [ServiceKey: DiscoveredService] = [:]
    /// The services each source announced or resolved, per browse type.
    private var announced: [Int: [String: Set<ServiceKey>]] = [:]
    /// The services a cache source announced that no source has resolved yet.
    private var awaited: [Int: Set<ServiceKey>] = [:]
    private var started: Set<String> = []
    /// The browses each asking source has said all-for-now for.
    private var askerAllForNow: [Int: Set<String>] = [:]
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
            guard started.insert(type).inserted else { return [progress] }
            // The sources already gone are gone for this browse too.
            let gone = ended.union(absent).subtracting([index]).sorted().map { milestone(.absent, type, $0) }
            return [event, progress] + gone
        case .allForNow(let type):
            askerAllForNow[index, default: []].insert(type)
            settleLedgerIfAskersAreDone()
            return [milestone(.allForNow, type, index)]
        case .cacheExhausted(let type):
            return [milestone(.cacheExhausted, type, index)]
        case .resolvesPending(let count):
            pending[index] = count
            settleLedgerIfAskersAreDone()
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
                settleLedgerIfAskersAreDone()
            }
            guard roles[index] == .cache else { return events }
            switch state {
            case .running:
                absent.remove(index)
            case .daemonLost, .failed:
                guard absent.insert(index).inserted else { break }
                awaited[index] = nil
                events += started.sorted().map { milestone(.absent, $0, index) } + pendingChange()
            case .connecting:
                break
            }
            return events
        case .sourceProgress:
            // A source that reports steps of its own (a replay of a merge): passed as they are.
            return [event]
        }
    }

    /// Notes that source `index` ended: it is gone from every browse (a step the scan waits for
    /// nothing more after), and its pending resolves no longer count. Returns the events that
    /// makes, and whether every source has ended.
    mutating func end(_ index: Int) -> (events: [BackendEvent], done: Bool) {
        guard ended.insert(index).inserted else { return ([], ended.count == names.count) }
        pending[index] = nil
        awaited[index] = nil
        closeLedgerIfNoAskerIsLeft()
        settleLedgerIfAskersAreDone()
        let events = started.sorted().map { milestone(.absent, $0, index) }
        return (events + pendingChange(), ended.count == names.count)
    }

    /// Settles the ledger once every asking source that is left has said all-for-now for every
    /// started browse with no resolve pending: the daemons then resolve what those sources did
    /// not (their answers come in order, so everything they resolved is in the ledger by then).
    private func settleLedgerIfAskersAreDone() {
        guard let ledger, !ledger.isSettled, !started.isEmpty else { return }
        let done = askers.allSatisfy { index in
            ended.contains(index) || failedAskers.contains(index)
                || (started.isSubset(of: askerAllForNow[index] ?? []) && (pending[index] ?? 0) == 0)
        }
        if done { ledger.settle() }
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
