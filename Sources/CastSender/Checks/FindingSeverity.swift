/// How serious a check finding is.
///
/// Severities order from least to most serious: `info < warning < error`. They encode as their
/// raw string (`"info"`, `"warning"`, `"error"`).
public enum FindingSeverity: String, Sendable, Hashable, Codable, CaseIterable, Comparable,
    CustomStringConvertible
{
    /// Something worth knowing; nothing is broken.
    case info
    /// Something that works but is likely to cause trouble, or that the tool cannot verify.
    case warning
    /// Something that breaks discovery, the build, App Store review or the app at run time.
    case error

    private var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .error: 2
        }
    }

    /// Orders severities from `info` (least serious) to `error` (most serious).
    public static func < (lhs: FindingSeverity, rhs: FindingSeverity) -> Bool {
        lhs.rank < rhs.rank
    }

    /// The raw value: `info`, `warning` or `error`.
    public var description: String { rawValue }
}
