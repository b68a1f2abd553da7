import Synchronization

/// Several backends run as one: the multicast backend and the known hosts, for example. Each
/// service is reported once, however many of them see it; it is removed when the last one that
/// saw it lets it go. A browse is all-for-now (or has delivered its cache) once every backend
/// said so; the pending resolves and the statistics are the sums of each backend's latest.
public struct MergedBackend: DiscoveryBackend {
    /// The backends, the first one's state changes first (the others' are reported too).
    public var backends: [any DiscoveryBackend]

    /// Creates the merge of `backends` (at least one).
    public init(_ backends: [any DiscoveryBackend]) {
        self.backends = backends
    }

    /// The longest of the backends' rounds.
    public var queryRound: Duration { backends.map(\.queryRound).max() ?? .zero }

    public func events(for request: BrowseRequest) throws(DiscoveryError) -> AsyncStream<BackendEvent> {
        guard !backends.isEmpty else {
            throw DiscoveryError(kind: .other, message: "no backend to merge", fix: "give at least one backend")
        }
        var streams: [AsyncStream<BackendEvent>] = []
        for backend in backends { streams.append(try backend.events(for: request)) }
        let (output, continuation) = AsyncStream<BackendEvent>.makeStream(bufferingPolicy: .unbounded)
        let merger = SharedMerger(sources: streams.count)
        var tasks: [Task<Void, Never>] = []
        for (index, stream) in streams.enumerated() {
            tasks.append(Task {
                for await event in stream {
                    // Taken and yielded under the lock, so the merged order is one order.
                    merger.state.withLock { state in
                        state.take(event, from: index).forEach { continuation.yield($0) }
                    }
                }
                let done = merger.state.withLock { state in
                    let (events, done) = state.end(index)
                    events.forEach { continuation.yield($0) }
                    return done
                }
                if done { continuation.finish() }
            })
        }
        let readers = tasks
        continuation.onTermination = { _ in readers.forEach { $0.cancel() } }
        return output
    }
}

/// The merge's state, shared by the tasks that read the streams.
private final class SharedMerger: Sendable {
    let state: Mutex<Merger>
    init(sources: Int) { state = Mutex(Merger(sources: sources)) }
}

/// The merge of several event streams (``MergedBackend``).
struct Merger: Sendable {
    private let sources: Int
    private var ended: Set<Int> = []
    /// The latest service each source reports, by key.
    private var services: [ServiceKey: [Int: DiscoveredService]] = [:]
    private var reported: [ServiceKey: DiscoveredService] = [:]
    private var allForNow: [String: Set<Int>] = [:]
    private var cacheExhausted: [String: Set<Int>] = [:]
    private var started: Set<String> = []
    private var pending: [Int: Int] = [:]
    private var statistics: [Int: BackendStatistics] = [:]

    init(sources: Int) { self.sources = sources }

    /// The events `event` from source `index` makes.
    mutating func take(_ event: BackendEvent, from index: Int) -> [BackendEvent] {
        switch event {
        case .found(let service), .updated(let service):
            services[service.key, default: [:]][index] = service
            return report(service.key)
        case .removed(let service):
            services[service.key]?[index] = nil
            return report(service.key)
        case .browseStarted(let type):
            return started.insert(type).inserted ? [event] : []
        case .allForNow(let type):
            return Self.all(&allForNow, type, index, sources) ? [event] : []
        case .cacheExhausted(let type):
            return Self.all(&cacheExhausted, type, index, sources) ? [event] : []
        case .resolvesPending(let count):
            pending[index] = count
            return [.resolvesPending(pending.values.reduce(0, +))]
        case .statistics(let counts):
            statistics[index] = counts
            return [.statistics(Self.sum(statistics.values))]
        case .stateChanged(let state):
            // The first backend's states are the merge's; another's only when it fails.
            if index == 0 { return [event] }
            if case .failed = state { return [event] }
            return []
        case .copyAdded, .resolveFailed:
            return [event]
        }
    }

    /// Notes that source `index` ended: it waits for nothing more, so the browses it had not
    /// finished are finished for it, and its pending resolves no longer count. Returns the
    /// events that makes, and whether every source has ended.
    mutating func end(_ index: Int) -> (events: [BackendEvent], done: Bool) {
        guard ended.insert(index).inserted else { return ([], ended.count == sources) }
        var events: [BackendEvent] = []
        for type in started.sorted() {
            if Self.all(&cacheExhausted, type, index, sources) { events.append(.cacheExhausted(browseType: type)) }
            if Self.all(&allForNow, type, index, sources) { events.append(.allForNow(browseType: type)) }
        }
        if pending.removeValue(forKey: index).map({ $0 != 0 }) == true {
            events.append(.resolvesPending(pending.values.reduce(0, +)))
        }
        return (events, ended.count == sources)
    }

    /// Whether every source has now said it for `type` (and this is the first time it is so).
    private static func all(_ table: inout [String: Set<Int>], _ type: String, _ index: Int, _ sources: Int) -> Bool {
        let before = table[type, default: []].count
        table[type, default: []].insert(index)
        return before < sources && table[type, default: []].count == sources
    }

    /// The merged view of `key` against what was reported: found, updated, removed or nothing.
    /// The first source's service leads (the multicast one); addresses are the union, and the
    /// known host comes from whichever source asked one.
    private mutating func report(_ key: ServiceKey) -> [BackendEvent] {
        let sources = services[key] ?? [:]
        var merged: DiscoveredService?
        for index in sources.keys.sorted() {
            guard let service = sources[index] else { continue }
            guard var current = merged else {
                merged = service
                continue
            }
            // The same address from two sources once (the multicast one, with its interface).
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
            if let hosts = counts.unansweredHosts { total.unansweredHosts = (total.unansweredHosts ?? []) + hosts }
        }
        return total
    }
}
