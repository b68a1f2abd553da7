/// What a discovery backend reports, in the order it happened.
///
/// A backend reports each copy of an instance it sees (the instance on one interface over one IP
/// protocol): a browse reports it (``copyAdded(_:browseType:)``) or no longer
/// (``copyRemoved(_:browseType:)``), it resolved (``copyResolved(_:_:stillAsking:)``), or failed
/// to (``copyFailed(_:_:)``); and the steps of its browses. The copies are merged into services
/// once, above the backends (a ``DiscoveryManager``, or ``MergedBackend/events(for:)`` for any
/// other reader), which reports ``found(_:)``, ``updated(_:)`` and ``removed(_:)``. A backend
/// that merges for itself, or a recording, may report those whole services instead: each is
/// taken as one copy of its backend.
public enum BackendEvent: Sendable, Hashable {
    /// The backend's connection state changed.
    case stateChanged(BackendState)
    /// The stack accepted a browse: its first query and the answers to it follow within one
    /// query round (``DiscoveryBackend/queryRound``).
    case browseStarted(browseType: String)
    /// A browse reported an instance on an interface and address family it had not reported it
    /// on before: news for that browse, which a scan waits a query round after.
    case copyAdded(ServiceCopyKey, browseType: String)
    /// A browse no longer reports a copy it reported.
    case copyRemoved(ServiceCopyKey, browseType: String)
    /// A copy resolved, for the first time or again with something changed. `stillAsking`: the
    /// stack still asks for more of its addresses (the other family's); the first report of its
    /// instance waits for them briefly.
    case copyResolved(ServiceCopyKey, ServiceResolution, stillAsking: Bool)
    /// The stack asks for no more of a copy's addresses (the other family's query ended
    /// without an answer).
    case copyAddressesComplete(ServiceCopyKey)
    /// Resolving a copy failed (the stack gave up for now); the copy stays known and adds
    /// nothing until it resolves.
    case copyFailed(ServiceCopyKey, DiscoveryError)
    /// The most copies an instance can have on the stack now (its interfaces × families): the
    /// first report of an instance with that many, all resolved or failed, waits no longer.
    case copyLimit(Int)
    /// A service was resolved for the first time, with every address known by then.
    case found(DiscoveredService)
    /// A known service changed: TXT, port, host, addresses or the browses reporting it.
    case updated(DiscoveredService)
    /// A service is gone: its last interface and address-family copy was removed, or the
    /// daemon went away. Carries the service as it was last known.
    case removed(DiscoveredService)
    /// A browse has delivered everything the stack had cached.
    case cacheExhausted(browseType: String)
    /// A browse expects no more results soon (about a second after it started).
    case allForNow(browseType: String)
    /// Resolving one copy of an instance failed (the daemon gives up after about 5 seconds):
    /// what the merge says of a ``copyFailed(_:_:)``.
    case resolveFailed(ServiceKey, DiscoveryError)
    /// How many instance copies are waiting for their first resolution; sent by the merge
    /// whenever the number changes, so a scan can tell when every resolve has finished. A
    /// recording's counts are added to the merge's own.
    case resolvesPending(Int)
    /// What a backend that reads the network itself counted so far; sent at most once a second,
    /// when the counts changed.
    case statistics(BackendStatistics)
    /// One source of a merged backend reached a step of a browse (``MergedBackend`` only; the
    /// merged browse's own steps are the events above).
    case sourceProgress(SourceProgress)
}
