/// What one source of a merged backend had done for a browse when the browse settled (or the
/// scan ended): when it delivered its cache and said all-for-now, from the start of the scan.
public struct SourceSettlement: Sendable, Hashable {
    /// The source's name (`mdns`, `avahi`, `hosts`).
    public var source: String
    /// What the merge waited for from it.
    public var role: MergedBackend.Role
    /// When it delivered its cache; nil when it had not (or has none: the querier).
    public var cacheDeliveredAfter: Duration?
    /// When it said all-for-now; nil when it had not yet.
    public var allForNowAfter: Duration?
    /// When its daemon was found gone; nil when it was there.
    public var absentAfter: Duration?
    /// When it stopped being waited for, its round over without its cache; nil when its cache
    /// came in time (or it has none).
    public var cacheWaitOverAfter: Duration?
    /// How many services it had reported for the browse (announced or resolved) by then.
    public var services: Int
    /// How many it had reported when its cache was delivered; nil when it had not been.
    public var servicesFromCache: Int?

    /// Creates a source's settlement.
    public init(
        source: String, role: MergedBackend.Role, cacheDeliveredAfter: Duration? = nil, allForNowAfter: Duration? = nil,
        absentAfter: Duration? = nil, cacheWaitOverAfter: Duration? = nil, services: Int = 0,
        servicesFromCache: Int? = nil
    ) {
        self.cacheWaitOverAfter = cacheWaitOverAfter
        self.source = source
        self.role = role
        self.cacheDeliveredAfter = cacheDeliveredAfter
        self.allForNowAfter = allForNowAfter
        self.absentAfter = absentAfter
        self.services = services
        self.servicesFromCache = servicesFromCache
    }

    /// Takes a step the source reached `after` the start of the scan: the first time of each
    /// step is kept, the service count is the latest.
    mutating func record(_ step: SourceProgress, after: Duration) {
        services = step.services
        switch step.milestone {
        case .browseStarted:
            break
        case .cacheExhausted:
            if cacheDeliveredAfter == nil {
                cacheDeliveredAfter = after
                servicesFromCache = step.services
            }
        case .allForNow:
            allForNowAfter = allForNowAfter ?? after
        case .absent:
            absentAfter = absentAfter ?? after
        case .cacheWaitOver:
            cacheWaitOverAfter = cacheWaitOverAfter ?? after
        }
    }
}

extension SourceSettlement {
    /// Whether nothing more of its cache is to come: delivered, all-for-now said, or gone.
    var hasNoCacheToCome: Bool { cacheDeliveredAfter != nil || allForNowAfter != nil || absentAfter != nil }
    /// Whether it asks no more for now: all-for-now said, or gone.
    var isDoneAsking: Bool { allForNowAfter != nil || absentAfter != nil }
}
