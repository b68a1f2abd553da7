/// The events a full ``BackendEventBuffer`` takes while its consumer is behind, folded into what
/// they leave: the newest state of each service, the newest counts, each copy and failure once,
/// and each milestone once, at its last occurrence.
///
/// ``events`` gives them back in an order that keeps every event's meaning: the copies announced,
/// then each service's net change (found, updated or removed, relative to what the consumer had
/// been told before the fold; a service found and removed within it is not reported at all),
/// then the failed resolves, the pending-resolve count and the statistics, then the milestones
/// (state changes, browse started, cache delivered, all-for-now, a source's steps) in the order
/// of their last occurrence. Information only moves earlier and milestones only later, so a
/// consumer sees each milestone with everything that preceded it (a scan never completes
/// without a service that was found before its all-for-now).
struct BackendEventFold: Sendable {
    /// What the fold holds of one service.
    private struct Record: Sendable {
        /// When the service first appeared in the fold.
        var order: Int
        /// Whether the consumer had been told of the service (found, not removed) before it.
        var knownBefore: Bool
        /// The service as last reported present; nil when its last report was a removal.
        var latest: DiscoveredService?
        /// The service as last reported (for a removal: as it was when removed).
        var last: DiscoveredService?
        /// The first copy announced for each browse type, in the order they came.
        var copies: [(browseType: String, event: BackendEvent)] = []
        /// The last failed resolve.
        var failure: BackendEvent?

        var hasState: Bool { last != nil }
    }

    private enum MilestoneKey: Hashable {
        case state(BackendState)
        case step(BackendEvent)
        case progress(source: String, browseType: String, milestone: SourceProgress.Milestone)
    }

    /// How many services the fold keeps copies and failures for that it has no state of (those
    /// whose state it keeps are kept whatever their number).
    let hintLimit: Int
    private var records: [ServiceKey: Record] = [:]
    private var hintOnlyRecords = 0
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

    /// Takes `event`; `known` says whether the consumer has been told of the service of a
    /// found, updated or removed event before the fold (found and not removed since).
    mutating func take(_ event: BackendEvent, known: Bool) {
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
                // is undone with what it announced.
                if record?.hasState == true { records[service.key] = nil }
                return
            }
            update(service.key, known: known) { record in
                record.latest = nil
                record.last = service
            }
        case .copyAdded(let copy, let browseType):
            guard records[copy.service] != nil || hintOnlyRecords < hintLimit else { return }
            update(copy.service, known: known) { record in
                if !record.copies.contains(where: { $0.browseType == browseType }) { record.copies.append((browseType, event)) }
            }
        case .resolveFailed(let key, _):
            guard records[key] != nil || hintOnlyRecords < hintLimit else { return }
            update(key, known: known) { record in record.failure = event }
        case .resolvesPending(let count):
            pending = count
        case .statistics(let counts):
            statistics = counts
        case .stateChanged(let state):
            milestones[.state(state)] = (order, event)
        case .browseStarted, .cacheExhausted, .allForNow:
            milestones[.step(event)] = (order, event)
        case .sourceProgress(let step):
            milestones[.progress(source: step.source, browseType: step.browseType, milestone: step.milestone)] = (order, event)
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
        let ordered = records.values.sorted { $0.order < $1.order }
        var events: [BackendEvent] = ordered.flatMap { $0.copies.map(\.event) }
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
