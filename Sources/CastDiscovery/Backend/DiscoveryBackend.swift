/// A source of DNS-SD browse and resolve results: the native Avahi client, or a recording.
public protocol DiscoveryBackend: Sendable {
    /// Starts browsing `browseTypes` (the base type and subtypes, as in
    /// ``DiscoveryCriteria/browseTypes``) and returns the events as they happen.
    ///
    /// Throws when discovery cannot start at all (no daemon, no bus). Ending the iteration
    /// (cancelling the task that iterates) stops the browse and frees everything it used.
    func events(browsing browseTypes: [String]) throws(DiscoveryError) -> AsyncStream<BackendEvent>
}
