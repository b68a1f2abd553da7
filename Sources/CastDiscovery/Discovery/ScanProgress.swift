/// Tells when a scan has everything the network had to say for now.
///
/// A scan is complete when no resolve is pending and every browse has settled: it has reported
/// all-for-now (the daemon expects nothing more soon, about a second after the browse began),
/// or it has delivered a cache with results in it and no new service has turned up for
/// ``quietPeriod``. A daemon that already knows the devices thus gives a complete list in a
/// fraction of a second; on a cold one, answers keep arriving after the (nearly empty) cache
/// is delivered, so the scan waits for all-for-now. A device the daemon has not heard from
/// lately and that answers later than the quiet period is missed by a warm scan; a live watch
/// reports it when it answers.
public struct ScanProgress: Sendable, Hashable {
    /// Where a scan stands.
    public enum Status: Sendable, Hashable {
        /// Not complete; nothing to wait for but more events.
        case waiting
        /// Complete if no new service turns up before this instant.
        case quietUntil(ContinuousClock.Instant)
        /// Complete.
        case complete
    }

    /// How long a warm scan waits after the last new service before it is complete.
    public static let quietPeriod: Duration = .milliseconds(150)

    /// The browses the scan runs.
    public let browseTypes: [String]
    private var allForNow: Set<String> = []
    private var cacheDelivered: Set<String> = []
    private var withResults: Set<String> = []
    private var known: Set<ServiceKey> = []
    private var pendingResolves = 0
    private var lastNewService: ContinuousClock.Instant?
    /// Whether the scan has completed (it stays complete).
    public private(set) var isComplete = false

    /// Starts tracking a scan of `browseTypes`.
    public init(browseTypes: [String]) {
        self.browseTypes = browseTypes
    }

    /// Records a backend event that happened at `now`; returns where the scan stands.
    public mutating func record(_ event: BackendEvent, at now: ContinuousClock.Instant) -> Status {
        switch event {
        case .found(let service), .updated(let service):
            withResults.formUnion(service.browseTypes.map { $0.lowercased() })
            if known.insert(service.key).inserted { lastNewService = now }
        case .cacheExhausted(let browseType):
            cacheDelivered.insert(browseType.lowercased())
        case .allForNow(let browseType):
            allForNow.insert(browseType.lowercased())
        case .resolvesPending(let count):
            if count > pendingResolves { lastNewService = now }
            pendingResolves = count
        case .removed, .stateChanged, .resolveFailed:
            break
        }
        return status(at: now)
    }

    /// Where the scan stands at `now`; marks it complete when it is.
    public mutating func status(at now: ContinuousClock.Instant) -> Status {
        if isComplete { return .complete }
        guard pendingResolves == 0 else { return .waiting }
        var quietUntil: ContinuousClock.Instant?
        for type in browseTypes.map({ $0.lowercased() }) where !allForNow.contains(type) {
            guard cacheDelivered.contains(type), withResults.contains(type), let last = lastNewService else {
                return .waiting
            }
            quietUntil = last + Self.quietPeriod
        }
        if let quietUntil, now < quietUntil { return .quietUntil(quietUntil) }
        isComplete = true
        return .complete
    }
}
