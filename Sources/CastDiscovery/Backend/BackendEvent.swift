/// What a discovery backend reports, in the order it happened.
public enum BackendEvent: Sendable, Hashable {
    /// The backend's connection state changed.
    case stateChanged(BackendState)
    /// The stack accepted a browse: its first query and the answers to it follow within one
    /// query round (``DiscoveryBackend/queryRound``).
    case browseStarted(browseType: String)
    /// A browse reported an instance on an interface and address family it had not reported it
    /// on before: news for that browse, which a scan waits a query round after.
    case copyAdded(ServiceCopyKey, browseType: String)
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
    /// Resolving one copy of an instance failed (the daemon gives up after about 5 seconds).
    case resolveFailed(ServiceKey, DiscoveryError)
    /// How many instance copies are waiting for their first resolution; sent whenever the
    /// number changes, so a scan can tell when every resolve has finished.
    case resolvesPending(Int)
    /// What a backend that reads the network itself counted so far; sent at most once a second,
    /// when the counts changed.
    case statistics(BackendStatistics)
    /// One source of a merged backend reached a step of a browse (``MergedBackend`` only; the
    /// merged browse's own steps are the events above).
    case sourceProgress(SourceProgress)
}
