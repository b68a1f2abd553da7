/// One stack of a backend that several stacks answer (``MergedBackend``), as a scan waits for
/// it: its name, what is waited for from it, and its query round.
///
/// A scan (``ScanProgress``) decides from each source's steps (``SourceProgress``) when the
/// merged browse has its caches and is all-for-now; the merge itself only reports the steps.
public struct ScanSource: Sendable, Hashable {
    /// The source's name (`mdns`, `avahi`, `hosts`), as its ``SourceProgress/source`` gives it.
    public var name: String
    /// What the scan waits for from it.
    public var role: MergedBackend.Role
    /// Its query round (``DiscoveryBackend/queryRound``): how long from the start a source read
    /// for its cache is waited for.
    public var round: Duration

    /// Creates a source.
    public init(name: String, role: MergedBackend.Role, round: Duration) {
        self.name = name
        self.role = role
        self.round = round
    }
}
