/// The events a full ``BackendEventBuffer`` takes while its consumer is behind, folded into what
/// they leave: the newest fact of each copy (each browse's add or remove, its resolution, its
/// failure), the newest state of each whole service, the newest counts, and each milestone
/// once, at its last occurrence.
///
/// ``events`` gives them back in an order that keeps every event's meaning: a loss of the
/// stack first (it makes the merge forget the stack's copies, so what came of them before it is
/// not kept), then the copies' facts in the order of their last occurrence, then each whole
/// service's net change (found, updated or removed, relative to what the consumer had been told
/// before the fold; a service found and removed within it is not reported at all), then the
/// failed resolves, the pending-resolve count and the statistics, then the milestones (state
/// changes, browse started, cache delivered, all-for-now, a source's steps) in the order of their
/// last occurrence. Information only moves earlier and milestones only later, so a consumer sees
/// each milestone with everything that preceded it (a scan never completes without a service
/// that was found before its all-for-now).
///
/// A copy the consumer had not been told of that is added and removed within the fold leaves
/// nothing, so the fold holds at most the copies the stack has and the consumer knows.
struct BackendEventFold: Sendable {
    /// What the fold holds of one whole service.
    private struct Record: Sendable {
        /// When the service first appeared in the fold.
        var order: Int
        /// Whether the consumer had been told of the service (found, not removed) before it.
        var knownBefore: Bool
        /// The service as last reported present; nil when its last report was a removal.
        var latest: DiscoveredService?
        /// The service as last reported (for a removal: as it was when removed).
        var last: DiscoveredService?
        /// The last failed resolve.
        var failure: BackendEvent?

        var hasState: Bool { last != nil }
    }

    /// One kind of fact about a copy: the newest of each kind is kept.
    private enum Fact: Sendable, Hashable {
        case browse(String)
        case resolution
        case addressesComplete
        case failure
    }

    /// What the fold holds of one copy.
    private struct CopyRecord: Sendable {
        /// The browses that the consumer had been told report the copy, before the fold.
        var knownBefore: Set<String>
        /// The newest event of each kind, with when it came.
        var facts: [Fact: (order: Int, event: BackendEvent)] = [:]

        /// The browses the consumer will have been told report the copy once it has the fold.
        var browsesAfter: Set<String> {
            var browses = knownBefore
            for (fact, entry) in facts {
                guard case .browse(let type) = fact else { continue }
                if case .copyAdded = entry.event { browses.insert(type) } else { browses.remove(type) }
            }
            return browses
        }
    }

    private enum MilestoneKey: Hashable {
        case state(BackendState)
        case step(BackendEvent)
        case progress(source: String, browseType: String, milestone: SourceProgress.Milestone)
    }

    /// How many services the fold keeps failures for that it has no state of (those whose state
    /// it keeps are kept whatever their number).
    let hintLimit: Int
    private var records: [ServiceKey: Record] = [:]
    private var hintOnlyRecords = 0
    private var copies: [ServiceCopyKey: CopyRecord] = [:]
    /// The last loss of the stack (daemon lost or failed) in the fold: the merge forgets the
    /// stack's copies and services at it.
    private var reset: BackendEvent?
    private var pending: Int?
    private var statistics: BackendStatistics?
    private var milestones: [MilestoneKey: (order: Int, event: BackendEvent)] = [:]
    private var order = 0
    /// How many events the fold took.
    private(set) var taken = 0

    init(hintLimit: Int) {
        self.hintLimit = hintLimit
    }

    /// Whether the fold has taken nothing.
    var isEmpty: Bool { taken == 0 }

    /// Whether the fold holds statistics.
    var hasStatistics: Bool { statistics != nil }

    /// Takes `event`. `known` says whether the consumer has been told of the service of a found,
    /// updated or removed event before the fold (found and not removed since); `knownBrowses`,
    /// which browses the consumer has been told report the copy of a copy's event.
    mutating func take(_ event: BackendEvent, known: Bool, knownBrowses: Set<String> = []) {
        taken += 1
        order += 1
        switch event {
        case .found(let service), .updated(let service):
            update(service.key, known: known) { record in
                record.latest = service
                record.last = service
            }
        case .removed(let service):
            let record = records[service.key]
            guard record?.knownBefore ?? known else {
                // The consumer was never told of it: nothing to say, and a find within the fold
                // is undone with it.
                if record?.hasState == true { records[service.key] = nil }
                return
            }
            update(service.key, known: known) { record in
                record.latest = nil
                record.last = service
            }
        case .copyAdded(let copy, let type), .copyRemoved(let copy, let type):
            note(.browse(type), event, of: copy, knownBrowses: knownBrowses)
        case .copyResolved(let copy, _, _):
            note(.resolution, event, of: copy, knownBrowses: knownBrowses)
        case .copyAddressesComplete(let copy):
            note(.addressesComplete, event, of: copy, knownBrowses: knownBrowses)
        case .copyFailed(let copy, _):
            note(.failure, event, of: copy, knownBrowses: knownBrowses)
        case .resolveFailed(let key, _):
            guard records[key] != nil || hintOnlyRecords < hintLimit else { return }
            update(key, known: known) { record in record.failure = event }
        case .resolvesPending(let count):
            pending = count
        case .statistics(let counts):
            statistics = counts
        case .copyLimit:
            milestones[.step(event)] = (order, event)
        case .stateChanged(.daemonLost), .stateChanged(.failed):
            // The merge forgets the stack's copies here: what came of them before is moot, and
            // so are the states before it.
            reset = event
            copies = [:]
            milestones = milestones.filter { if case .state = $0.key { false } else { true } }
        case .stateChanged(let state):
            milestones[.state(state)] = (order, event)
        case .browseStarted, .cacheExhausted, .allForNow:
            milestones[.step(event)] = (order, event)
        case .sourceProgress(let step):
            milestones[.progress(source: step.source, browseType: step.browseType, milestone: step.milestone)] = (
                order, event
            )
        }
    }

    /// Keeps `event` as the newest `fact` of `copy`; a copy the consumer did not know that is
    /// now in no browse is dropped with everything about it.
    private mutating func note(_ fact: Fact, _ event: BackendEvent, of copy: ServiceCopyKey, knownBrowses: Set<String>)
    {
        var record = copies[copy] ?? CopyRecord(knownBefore: knownBrowses)
        record.facts[fact] = (order, event)
        if record.knownBefore.isEmpty, record.browsesAfter.isEmpty {
            copies[copy] = nil
        } else {
            copies[copy] = record
        }
    }

    /// Changes the record of `key`, making it when there is none (in the fold's order).
    private mutating func update(_ key: ServiceKey, known: Bool, _ change: (inout Record) -> Void) {
        var record = records[key] ?? Record(order: order, knownBefore: known)
        let hadState = records[key]?.hasState ?? true
        let isNew = records[key] == nil
        change(&record)
        if isNew, !record.hasState { hintOnlyRecords += 1 }
        if !isNew, !hadState, record.hasState { hintOnlyRecords -= 1 }
        records[key] = record
    }

    /// The events the fold leaves, in the order described on the type; `statistics` is added
    /// where the fold's own would be, when it has none.
    func events(addingStatistics extra: BackendStatistics? = nil) -> [BackendEvent] {
        var events: [BackendEvent] = reset.map { [$0] } ?? []
        events += copies.values.flatMap { $0.facts.values }.sorted { $0.order < $1.order }.map(\.event)
        let ordered = records.values.sorted { $0.order < $1.order }
        for record in ordered {
            guard let last = record.last else { continue }
            if let latest = record.latest {
                events.append(record.knownBefore ? .updated(latest) : .found(latest))
            } else if record.knownBefore {
                events.append(.removed(last))
            }
        }
        events += ordered.compactMap(\.failure)
        if let pending { events.append(.resolvesPending(pending)) }
        if let counts = statistics ?? extra { events.append(.statistics(counts)) }
        events += milestones.values.sorted { $0.order < $1.order }.map(\.event)
        return events
    }
}
