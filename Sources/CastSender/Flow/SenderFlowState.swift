/// What a sender app remembers across launches: the start flag's "discovery has started once"
/// and the user's permission answers. ``SenderFlowStore`` keeps it in a file.
public struct SenderFlowState: Sendable, Hashable, Codable {
    /// Whether discovery has started once, in any launch.
    public var discoveryHasStartedOnce: Bool
    /// The local-network permission as last set by the user (``LocalNetworkPermission/notDetermined``
    /// until the prompt is answered). On a platform without the permission the flow reports
    /// ``LocalNetworkPermission/notApplicable`` whatever is stored.
    public var localNetworkPermission: LocalNetworkPermission
    /// Whether the iOS 13 Bluetooth prompt has been answered (it is shown once per install).
    public var bluetoothPromptAnswered: Bool

    /// Creates a state; the defaults are a fresh install's.
    public init(
        discoveryHasStartedOnce: Bool = false, localNetworkPermission: LocalNetworkPermission = .notDetermined,
        bluetoothPromptAnswered: Bool = false
    ) {
        self.discoveryHasStartedOnce = discoveryHasStartedOnce
        self.localNetworkPermission = localNetworkPermission
        self.bluetoothPromptAnswered = bluetoothPromptAnswered
    }

    /// The permission the app has on `platform`: ``LocalNetworkPermission/notApplicable`` without
    /// the permission; else the stored one, with a stored `notApplicable` read as `notDetermined`.
    public func permission(on platform: SenderPlatform) -> LocalNetworkPermission {
        guard platform.requiresLocalNetworkPermission else { return .notApplicable }
        return localNetworkPermission == .notApplicable ? .notDetermined : localNetworkPermission
    }
}
