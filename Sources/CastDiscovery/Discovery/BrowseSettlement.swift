/// What settled one browse of a scan, and when.
public struct BrowseSettlement: Sendable, Hashable {
    /// Why a browse counts as settled.
    public enum Reason: String, Sendable, Hashable, Codable {
        /// The stack said it expects nothing more soon.
        case allForNow
        /// Its cache had been delivered and a query round passed with nothing new.
        case quietRound
    }

    /// The browse type, as requested.
    public var browseType: String
    /// What settled it; nil when it had not settled (the scan timed out).
    public var reason: Reason?
    /// When it settled, from the start of the scan.
    public var after: Duration?
    /// When its cache had been delivered, from the start of the scan.
    public var cacheDeliveredAfter: Duration?
    /// How many services it had reported by then.
    public var services: Int
    /// How many of them came from the stack's cache (were reported before the cache was
    /// delivered); nil when the cache was not delivered.
    public var servicesFromCache: Int?
    /// Each source's part, when the backend is a merge (``MergedBackend``), in the merge's order;
    /// empty otherwise.
    public var sources: [SourceSettlement]

    /// Creates a settlement.
    public init(
        browseType: String, reason: Reason?, after: Duration?, cacheDeliveredAfter: Duration?, services: Int,
        servicesFromCache: Int? = nil, sources: [SourceSettlement] = []
    ) {
        self.sources = sources
        self.browseType = browseType
        self.reason = reason
        self.after = after
        self.cacheDeliveredAfter = cacheDeliveredAfter
        self.services = services
        self.servicesFromCache = servicesFromCache
    }
}
