/// Tells when a scan has everything the network had to say for now.
///
/// A scan is complete when no resolve is pending and every browse has either reported
/// all-for-now (the daemon expects nothing more soon, about a second after the browse began)
/// or delivered its cache with at least one result in it. A daemon that already knows the
/// devices thus gives a complete list in milliseconds, and a cold one after its all-for-now.
/// A warm daemon whose cache lacks a device it has not heard from lately completes without it;
/// a live watch reports the device when it answers.
public struct ScanProgress: Sendable, Hashable {
    /// The browses the scan runs.
    public let browseTypes: [String]
    private var allForNow: Set<String> = []
    private var cacheDelivered: Set<String> = []
    private var withResults: Set<String> = []
    private var pendingResolves = 0
    /// Whether the scan has completed (it stays complete).
    public private(set) var isComplete = false

    /// Starts tracking a scan of `browseTypes`.
    public init(browseTypes: [String]) {
        self.browseTypes = browseTypes
    }

    /// Records a backend event; returns true when the scan has just become complete.
    public mutating func record(_ event: BackendEvent) -> Bool {
        switch event {
        case .found(let service), .updated(let service):
            withResults.formUnion(service.browseTypes.map { $0.lowercased() })
        case .cacheExhausted(let browseType):
            cacheDelivered.insert(browseType.lowercased())
        case .allForNow(let browseType):
            allForNow.insert(browseType.lowercased())
        case .resolvesPending(let count):
            pendingResolves = count
        case .removed, .stateChanged, .resolveFailed:
            break
        }
        guard !isComplete else { return false }
        let settled = browseTypes.allSatisfy { type in
            let type = type.lowercased()
            return allForNow.contains(type) || (cacheDelivered.contains(type) && withResults.contains(type))
        }
        isComplete = settled && pendingResolves == 0
        return isComplete
    }
}
