import CastDiscovery

/// How a sender app starts discovery, like the SDK's `GCKCastOptions`.
public struct CastOptions: Sendable, Hashable {
    /// What discovery looks for.
    public var criteria: DiscoveryCriteria
    /// When true, discovery starts only when the app asks for it. Default false.
    public var disableDiscoveryAutostart: Bool
    /// When true (the default), on a platform with a local-network permission and with autostart
    /// on, discovery waits for the first tap on the Cast button (and the interstitial after it)
    /// until discovery has started once; later launches start it on their own.
    public var startDiscoveryAfterFirstTapOnCastButton: Bool
    /// The platform the app runs on.
    public var platform: SenderPlatform

    /// Creates options; the defaults are the SDK's.
    public init(
        criteria: DiscoveryCriteria = .defaultMediaReceiver,
        disableDiscoveryAutostart: Bool = false,
        startDiscoveryAfterFirstTapOnCastButton: Bool = true,
        platform: SenderPlatform = .linux
    ) {
        self.criteria = criteria
        self.disableDiscoveryAutostart = disableDiscoveryAutostart
        self.startDiscoveryAfterFirstTapOnCastButton = startDiscoveryAfterFirstTapOnCastButton
        self.platform = platform
    }

    /// Whether the first-tap rule applies: the flag is on, autostart is on, and the platform has a
    /// local-network permission.
    public var waitsForFirstTap: Bool {
        startDiscoveryAfterFirstTapOnCastButton && !disableDiscoveryAutostart
            && platform.requiresLocalNetworkPermission
    }
}
