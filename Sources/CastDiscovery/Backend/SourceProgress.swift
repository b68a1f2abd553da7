/// How far one source of a merged backend (``MergedBackend``) has come with one browse: the
/// merge reports each source's milestones, so a scan can say per source what it waited for.
public struct SourceProgress: Sendable, Hashable {
    /// A step of one source's browse.
    public enum Milestone: String, Sendable, Hashable, Codable, CaseIterable {
        /// The source started the browse.
        case browseStarted
        /// The source delivered everything its stack had cached.
        case cacheExhausted
        /// The source expects nothing more soon.
        case allForNow
        /// The source's daemon went away (or the source ended): there is no cache to wait for.
        case absent
        /// A daemon read for its cache had not delivered it within its query round: it is not
        /// waited for any longer (what it delivers later is still merged). Decided by the scan
        /// (``ScanProgress``, kept in ``SourceSettlement/cacheWaitOverAfter``); a merge no longer
        /// sends it, and one read from an older recording is kept as it is.
        case cacheWaitOver
    }

    /// The source's name (`mdns`, `avahi`, `hosts`).
    public var source: String
    /// What the merge waits for from it.
    public var role: MergedBackend.Role
    /// The browse type, as requested.
    public var browseType: String
    /// The step reached.
    public var milestone: Milestone
    /// How many services the source had reported for the browse by then (announced or
    /// resolved).
    public var services: Int

    /// Creates a milestone of `source`.
    public init(source: String, role: MergedBackend.Role, browseType: String, milestone: Milestone, services: Int) {
        self.source = source
        self.role = role
        self.browseType = browseType
        self.milestone = milestone
        self.services = services
    }
}
