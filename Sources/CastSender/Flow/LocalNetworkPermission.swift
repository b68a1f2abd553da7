/// The state of an app's local-network permission, as the user set it.
///
/// iOS 14 and later ask once per install, the first time the app browses the local network; a
/// denial stays until the user changes it in Settings. Linux and iOS before 14 have no such
/// permission (``notApplicable``).
public enum LocalNetworkPermission: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The system has not asked yet (or the user has not answered).
    case notDetermined
    /// The user allowed local-network access.
    case granted
    /// The user refused local-network access; discovery runs but finds nothing.
    case denied
    /// The platform has no local-network permission (Linux, iOS before 14).
    case notApplicable

    /// Whether discovery can see devices: granted or not applicable.
    public var allowsDiscovery: Bool { self == .granted || self == .notApplicable }

    /// The case name, as in JSON.
    public var description: String { rawValue }
}
