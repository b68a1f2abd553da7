/// A source of DNS-SD browse and resolve results: the native Avahi client, a recording, or
/// any other stack.
public protocol DiscoveryBackend: Sendable {
    /// Starts the browses of `request` and returns the events as they happen: each copy of an
    /// instance the stack sees and what became of it, and the browses' steps (see
    /// ``BackendEvent``). ``serviceEvents(for:)`` gives them merged into services.
    ///
    /// Throws when discovery cannot start at all (no daemon, no bus). Ending the iteration
    /// (cancelling the task that iterates) stops the browse and frees everything it used.
    ///
    /// The stream is bounded and loses no state: every backend of this package reads it from a
    /// ``BackendEventBuffer``, which holds 8,192 events in order and folds what comes while a
    /// consumer is further behind into the newest state of each service, count and milestone
    /// (counted in ``BackendStatistics/coalescedEvents``); a replay waits for room instead.
    func events(for request: BrowseRequest) throws(DiscoveryError) -> AsyncStream<BackendEvent>

    /// The longest time from the start of a browse to the answers to the stack's first query
    /// for it: its own delay before that query plus the responders' delay before they answer.
    /// A scan calls a browse whose cache has been delivered settled once this long has passed
    /// with nothing new (see ``ScanProgress``).
    var queryRound: Duration { get }

    /// The stacks whose steps a scan waits for, when this backend merges several
    /// (``MergedBackend``); empty for a backend that is one stack, whose own all-for-now and
    /// cache-exhausted events are the browse's.
    var scanSources: [ScanSource] { get }

    /// How long the first report of a new instance waits for its other copies on this stack.
    var firstReportWait: FirstReportWait { get }
}

extension DiscoveryBackend {
    /// Starts browsing `browseTypes` (as in ``DiscoveryCriteria/browseTypes``) actively.
    ///
    /// - Throws: ``DiscoveryError`` of kind `invalidBrowseType` when a type does not parse or
    ///   none is given, or the backend's error.
    public func events(browsing browseTypes: [String]) throws(DiscoveryError) -> AsyncStream<BackendEvent> {
        try events(for: BrowseRequest(parsing: browseTypes))
    }

    /// avahi-daemon's round: 730 ms. avahi sends its first query for a new browse 100 ms after
    /// the browse starts (measured in the lab: 114-117 ms after avahi-browse starts, 126-141 ms
    /// after cast-scan starts). Responders then delay an answer with a shared record (the PTR)
    /// by 20-120 ms, and RFC 6762 section 6.4 lets them add up to 500 ms to aggregate answers:
    /// python-zeroconf does, answering 501-503 ms after the query in 25 of 45 answers measured
    /// when the daemon asked over IPv4 and IPv6. 100 + 120 + 500 ms, plus 10 ms for the network
    /// and D-Bus.
    public var queryRound: Duration { .milliseconds(730) }

    /// None: the backend is one stack.
    public var scanSources: [ScanSource] { [] }

    /// No grace, up to 150 ms for copies still resolving (``FirstReportWait/standard``).
    public var firstReportWait: FirstReportWait { .standard }
}

/// What a backend is asked to browse, and how.
public struct BrowseRequest: Sendable, Hashable {
    /// The base type and subtypes to browse, parsed. Never empty.
    public let serviceTypes: [ServiceType]
    /// The same types as events name them (``BackendEvent/browseStarted(browseType:)``...): as
    /// given to ``init(parsing:passive:filter:)``, else each type's ``ServiceType/typeString``.
    public let browseTypes: [String]
    /// Whether to listen more and ask less (``DiscoveryManager/passiveScan``); backends that
    /// cannot choose ignore it.
    public var passive: Bool
    /// The addresses the manager will show (``DiscoveryManager/filter``): a backend may ask only
    /// on that interface and over those families; the manager filters either way.
    public var filter: DeviceFilter
    /// For a daemon read for its cache beside asking sources (``MergedBackend``): the services
    /// those sources have resolved, which the daemon need not resolve again. Nil for a backend
    /// that runs alone or asks itself: it resolves every copy. A backend that cannot leave a
    /// resolve to others ignores it.
    public var resolvedElsewhere: ResolutionLedger?

    /// Creates a request for `serviceTypes`.
    ///
    /// - Throws: ``DiscoveryError`` of kind `invalidBrowseType` when `serviceTypes` is empty.
    public init(serviceTypes: [ServiceType], passive: Bool = false, filter: DeviceFilter = .none) throws(DiscoveryError)
    {
        try self.init(
            serviceTypes: serviceTypes, named: serviceTypes.map(\.typeString), passive: passive, filter: filter)
    }

    private init(serviceTypes: [ServiceType], named names: [String], passive: Bool, filter: DeviceFilter)
        throws(DiscoveryError)
    {
        guard !serviceTypes.isEmpty else {
            throw DiscoveryError(
                kind: .invalidBrowseType, message: "nothing to browse", fix: "pass at least one browse type")
        }
        self.serviceTypes = serviceTypes
        browseTypes = names
        self.passive = passive
        self.filter = filter
    }

    /// Creates a request for browse types given as text (`_googlecast._tcp`,
    /// `_CC1AD845._sub._googlecast._tcp`).
    ///
    /// - Throws: ``DiscoveryError`` of kind `invalidBrowseType` for the first type that does not
    ///   parse, or when none is given.
    public init(parsing browseTypes: [String], passive: Bool = false, filter: DeviceFilter = .none)
        throws(DiscoveryError)
    {
        var types: [ServiceType] = []
        for text in browseTypes {
            do {
                types.append(try ServiceType(parsing: text))
            } catch {
                throw DiscoveryError(
                    kind: .invalidBrowseType, message: "cannot browse \(SafeText.quoted(text)): \(error)",
                    fix: "give a DNS-SD type such as _googlecast._tcp or _CC1AD845._sub._googlecast._tcp")
            }
        }
        try self.init(serviceTypes: types, named: browseTypes, passive: passive, filter: filter)
    }

    /// Each browse type's service type (with its subtype), by the name events give it.
    public var serviceTypesByName: [String: ServiceType] {
        Dictionary(zip(browseTypes, serviceTypes).map { ($0, $1) }) { first, _ in first }
    }
}
