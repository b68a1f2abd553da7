/// Where a sender app is in its life cycle.
public enum SenderAppPhase: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Not launched yet.
    case notLaunched
    /// Running in the foreground.
    case foreground
    /// Running in the background.
    case background

    /// The phase of a discovery session.
    public init(_ phase: DiscoveryStartPolicy.Phase) {
        switch phase {
        case .notLaunched: self = .notLaunched
        case .foreground: self = .foreground
        case .background: self = .background
        }
    }

    /// The case name, as in JSON.
    public var description: String { rawValue }
}
