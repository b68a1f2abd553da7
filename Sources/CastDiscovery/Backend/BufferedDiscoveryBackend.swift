/// A backend that hands over the buffer its events wait in (every backend of this package), so
/// that a ``DiscoveryManager`` takes them with no queue between the backend and its loop
/// (``BackendEventBuffer/take(orNotify:)``).
package protocol BufferedDiscoveryBackend: DiscoveryBackend {
    /// Starts the browses of `request`; their events wait in the buffer returned, which the
    /// caller reads (``BackendEventBuffer/stream()`` or ``BackendEventBuffer/take(orNotify:)``)
    /// and lets go of when done (``BackendEventBuffer/letGo()``), which stops the browses.
    func eventBuffer(for request: BrowseRequest) throws(DiscoveryError) -> BackendEventBuffer
}

extension DiscoveryBackend {
    /// The buffer the events of `request` wait in: the backend's own, or, for a backend that
    /// gives only a stream, a buffer the stream is read into (``BackendEventBuffer/relaying(_:)``).
    package func readableBuffer(for request: BrowseRequest) throws(DiscoveryError) -> BackendEventBuffer {
        if let buffered = self as? any BufferedDiscoveryBackend { return try buffered.eventBuffer(for: request) }
        return .relaying(try events(for: request))
    }
}
