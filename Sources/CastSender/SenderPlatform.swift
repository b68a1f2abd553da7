/// The platform a sender app runs on, as far as discovery start rules care.
public enum SenderPlatform: Sendable, Hashable, CustomStringConvertible {
    /// Linux: no local-network permission.
    case linux
    /// iOS or iPadOS at a version; from 14 on, the local network is behind a permission.
    case iOS(major: Int, minor: Int = 0)

    /// Whether browsing the local network needs the user's permission (iOS 14 and later), which
    /// the system asks for the first time discovery runs.
    public var requiresLocalNetworkPermission: Bool {
        switch self {
        case .linux: false
        case .iOS(let major, _): major >= 14
        }
    }

    public var description: String {
        switch self {
        case .linux: "Linux"
        case .iOS(let major, let minor): "iOS \(major).\(minor)"
        }
    }
}
