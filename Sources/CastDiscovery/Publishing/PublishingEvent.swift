/// What became of a registration (``ServicePublisher``).
public enum PublishingEvent: Sendable, Hashable {
    /// The daemon published registration `id` as `name` (after probing: no one else has it).
    case established(id: Int, name: String)
    /// Another host (or program) has the name: the daemon picked `to`, as it does for its own
    /// services, and publishes that.
    case renamed(id: Int, from: String, to: String)
    /// The daemon refused or dropped registration `id`.
    case failed(id: Int, error: DiscoveryError)
    /// The connection to the daemon was lost; everything is registered again when it returns.
    case daemonLost(reason: String)
    /// The daemon answers (again); registrations follow as ``established(id:name:)``.
    case daemonRunning
    /// The publisher cannot go on (its loop failed, or the daemon's bus went for good): nothing
    /// it holds is published any more.
    case stopped(error: DiscoveryError)
}
