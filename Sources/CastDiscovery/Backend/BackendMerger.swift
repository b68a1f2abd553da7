/// The merge of what the sources of a browse report: their copies and services, merged into one
/// service per instance by the one ``ServiceAggregator``; the pending resolves; and, for several
/// sources (``MergedBackend``), each source's steps. When a merged browse is all-for-now is not
/// decided here but by the scan, from those steps (``ScanProgress``). A backend that is one
/// stack is merged too (its copies), its steps passed as they are.
struct BackendMerger: Sendable {
    private let names: [String]
    private let roles: [MergedBackend.Role]
    /// Whether there are several sources: their steps become ``BackendEvent/sourceProgress(_:)``.
    private let isMerge: Bool
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
    /// The one store of copies and services.
    private(set) var aggregator: ServiceAggregator
    /// The services each source announced or resolved, per browse type (for its steps' counts).
    private var announced: [Int: [String: Set<ServiceKey>]] = [:]
    private var started: Set<String> = []
    /// The browses each asking source has said all-for-now for.
    private var askerAllForNow: [Int: Set<String>] = [:]
    /// Pending counts a source reported itself (a recording): added to the merge's own.
    private var reportedCounts: [Int: Int] = [:]
    private var reportedPending: Int?
    private var statistics: [Int: BackendStatistics] = [:]

    /// The merge of one backend that is one stack.
    init(single wait: FirstReportWait) {
        names = [""]
        roles = [.asks]
        isMerge = false
        askers = [0]
        ledger = nil
        aggregator = ServiceAggregator(sources: [ServiceAggregator.Source(wait: wait)])
    }

    /// Creates the merge of sources with these names, roles and waits, in order.
    init(sources: [(name: String, role: MergedBackend.Role, wait: FirstReportWait)], ledger: ResolutionLedger? = nil) {
        self.ledger = ledger
        names = sources.map(\.name)
        roles = sources.map(\.role)
        isMerge = true
        let asking = sources.indices.filter { sources[$0].role == .asks }
        askers = asking.isEmpty ? Array(sources.indices) : asking
        aggregator = ServiceAggregator(
            sources: sources.map { ServiceAggregator.Source(wait: $0.wait, role: $0.role) }, ledger: ledger)
    }

    /// Notes, for source `index`, when it made the event about to be taken (at the latest) and
    /// the time up to which it has handed over everything it read (see
    /// ``ServiceAggregator/noteSource(_:madeBy:readThrough:)``).
    mutating func noteSource(
        _ index: Int, madeBy made: ContinuousClock.Instant? = nil, readThrough: ContinuousClock.Instant? = nil
    ) {
        aggregator.noteSource(index, madeBy: made, readThrough: readThrough)
    }

    /// When the oldest first report held for an instance's other copies is due.
    var nextRelease: ContinuousClock.Instant? { aggregator.nextRelease }

    /// The events `event` from source `index` makes at `now`. The pending count a copy's or a
    /// service's report changes is said before the next other event, or at ``flush()``: a
    /// stack's reports of one moment (a copy added and resolved) leave one count.
    mutating func take(_ event: BackendEvent, from index: Int, at now: ContinuousClock.Instant) -> [BackendEvent] {
        note(event, from: index)
        var events = aggregator.take(event, from: index, at: now) ?? []
        switch event {
        case .copyAdded, .copyRemoved, .copyResolved, .copyAddressesComplete, .copyFailed, .copyLimit, .found, .updated:
            settleLedgerIfAskersAreDone()
            return events
        case .removed(let service):
            // A backend that is one stack and reports whole services may remove one the list
            // still shows from the last run, which this run's merge never had.
            if !isMerge, events.isEmpty, !aggregator.isKnown(service.key) { events = [event] }
            settleLedgerIfAskersAreDone()
            return events
        default:
            break
        }
        // Before any other event: the count as the copies left it.
        return pendingChange() + milestoneEvents(event, from: index, merged: events)
    }

    /// The pending count, when it changed since it was last said: what a reader calls once it
    /// has taken the events waiting (the end of a turn).
    mutating func flush() -> [BackendEvent] {
        pendingChange()
    }

    /// The events of `event` from source `index` that is not a copy's or a service's report,
    /// after what the merge made of it (`merged`: a lost stack's copies removed).
    private mutating func milestoneEvents(_ event: BackendEvent, from index: Int, merged: [BackendEvent])
        -> [BackendEvent]
    {
        var events = merged
        switch event {
        case .copyAdded, .copyRemoved, .copyResolved, .copyAddressesComplete, .copyFailed, .copyLimit, .found, .updated,
            .removed:
            break
        case .resolveFailed:
            events.append(event)
        case .browseStarted(let type):
            guard isMerge else { return events + [event] + pendingChange() }
            let progress = milestone(.browseStarted, type, index)
            guard started.insert(type).inserted else { return events + [progress] + pendingChange() }
            // The sources already gone are gone for this browse too.
            let gone = ended.union(absent).subtracting([index]).sorted().map { milestone(.absent, type, $0) }
            events += [event, progress] + gone
        case .allForNow(let type):
            guard isMerge else { return events + [event] + pendingChange() }
            askerAllForNow[index, default: []].insert(type)
            settleLedgerIfAskersAreDone()
            events.append(milestone(.allForNow, type, index))
        case .cacheExhausted(let type):
            guard isMerge else { return events + [event] + pendingChange() }
            events.append(milestone(.cacheExhausted, type, index))
        case .resolvesPending(let count):
            reportedCounts[index] = max(0, count)
            settleLedgerIfAskersAreDone()
        case .statistics(let counts):
            guard isMerge else { return events + [event] }
            statistics[index] = counts
            events.append(.statistics(Self.sum(statistics.values)))
        case .stateChanged(let state):
            events = stateChanged(state, event, from: index) + events
        case .sourceProgress:
            // A source that reports steps of its own (a replay of a merge): passed as they are.
            events.append(event)
        }
        settleLedgerIfAskersAreDone()
        return events + pendingChange()
    }

    /// The events a state change of source `index` makes before what it does to the services.
    private mutating func stateChanged(_ state: BackendState, _ event: BackendEvent, from index: Int) -> [BackendEvent]
    {
        guard isMerge else { return [event] }
        var events: [BackendEvent] = []
        // The first source's states are the merge's; another's only when it fails, unless it is
        // a daemon read for its cache: the asking sources carry on without it (it is absent).
        if index == 0 {
            events.append(event)
        } else if case .failed = state, roles[index] != .cache {
            events.append(event)
        }
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
            events += started.sorted().map { milestone(.absent, $0, index) }
        case .connecting:
            break
        }
        return events
    }

    /// Releases the first reports whose wait is over at `now`.
    mutating func releaseHeld(at now: ContinuousClock.Instant) -> [BackendEvent] {
        let events = aggregator.releaseHeld(at: now)
        settleLedgerIfAskersAreDone()
        return events + pendingChange()
    }

    /// ``releaseHeld(at:)`` when a held first report is due at `now`; nothing otherwise.
    mutating func releaseDue(at now: ContinuousClock.Instant) -> [BackendEvent] {
        guard let release = nextRelease, release <= now else { return [] }
        return releaseHeld(at: now)
    }

    /// Source `index` has handed over everything it read up to `readThrough`, and its reader has
    /// merged it all: the first reports that waited on it may go at `now`.
    mutating func caughtUp(_ index: Int, readThrough: ContinuousClock.Instant, at now: ContinuousClock.Instant)
        -> [BackendEvent]
    {
        noteSource(index, readThrough: readThrough)
        return releaseDue(at: now)
    }

    /// When a reader should next look at the held first reports: the next release, or shortly
    /// after `now` when one is due but waits on a stack that has not read up to it.
    func nextCheck(at now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        guard let release = nextRelease else { return nil }
        return release > now ? release : now + ServiceAggregator.stackRecheck
    }

    /// Notes that source `index` ended: it is gone from every browse (a step the scan waits for
    /// nothing more after), and its pending resolves no longer count. Returns the events that
    /// makes, and whether every source has ended.
    mutating func end(_ index: Int) -> (events: [BackendEvent], done: Bool) {
        guard ended.insert(index).inserted else { return ([], ended.count == names.count) }
        reportedCounts[index] = nil
        aggregator.sourceEnded(index)
        closeLedgerIfNoAskerIsLeft()
        settleLedgerIfAskersAreDone()
        let events = isMerge ? started.sorted().map { milestone(.absent, $0, index) } : []
        return (events + pendingChange(), ended.count == names.count)
    }

    /// Counts what source `index` announced, for its steps.
    private mutating func note(_ event: BackendEvent, from index: Int) {
        guard isMerge else { return }
        switch event {
        case .found(let service), .updated(let service):
            for type in service.browseTypes { announced[index, default: [:]][type, default: []].insert(service.key) }
        case .removed(let service):
            for type in service.browseTypes { announced[index]?[type]?.remove(service.key) }
        case .copyAdded(let copy, let type):
            announced[index, default: [:]][type, default: []].insert(copy.service)
        default:
            break
        }
    }

    /// Settles the ledger once every asking source that is left has said all-for-now for every
    /// started browse with no resolve pending: the daemons then resolve what those sources did
    /// not (their answers come in order, so everything they resolved is in the ledger by then).
    private func settleLedgerIfAskersAreDone() {
        guard let ledger, !ledger.isSettled, !started.isEmpty else { return }
        let done = askers.allSatisfy { index in
            ended.contains(index) || failedAskers.contains(index)
                || (started.isSubset(of: askerAllForNow[index] ?? [])
                    && aggregator.pendingResolves(of: index) + (reportedCounts[index] ?? 0) == 0)
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
        .sourceProgress(
            SourceProgress(
                source: names[index], role: roles[index], browseType: type, milestone: step,
                services: announced[index]?[type]?.count ?? 0))
    }

    /// The pending count when it changed: the merge's own (``ServiceAggregator/pendingResolves``)
    /// and what sources that count for themselves reported.
    private mutating func pendingChange() -> [BackendEvent] {
        let total = aggregator.pendingResolves + reportedCounts.values.reduce(0, +)
        guard total != (reportedPending ?? 0) || (reportedPending == nil && !reportedCounts.isEmpty) else { return [] }
        reportedPending = total
        return [.resolvesPending(total)]
    }

    private static func sum(_ all: some Sequence<BackendStatistics>) -> BackendStatistics {
        var total = BackendStatistics()
        for counts in all {
            total.packetsReceived += counts.packetsReceived
            total.malformedPackets += counts.malformedPackets
            total.malformedRecords += counts.malformedRecords
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
