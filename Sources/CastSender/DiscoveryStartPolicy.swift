/// Decides, for one launch of a sender app, whether discovery runs, following the SDK's start
/// flags (``CastOptions``): a pure state machine fed with app events.
///
/// - At launch and on each return to the foreground, discovery is wanted when autostart is on
///   and either the first-tap rule does not apply or discovery has started once.
/// - Under the first-tap rule, before discovery has ever started, the first Cast button tap asks
///   for the interstitial; discovery is wanted when it is dismissed.
/// - An explicit start makes discovery wanted whatever the flags; an explicit stop makes it
///   unwanted until the next start, interstitial dismissal, or autostart on foreground.
/// - Discovery runs only in the foreground and is not wanted before ``Input/appLaunched``.
/// - The first time discovery runs, ``Output/rememberDiscoveryStarted`` asks the caller to store
///   the fact (see ``DiscoveryStartStore``) for the next launches.
public struct DiscoveryStartPolicy: Sendable, Hashable {
    /// What happens to the app.
    public enum Input: Sendable, Hashable, CaseIterable {
        /// The app finished launching (in the foreground).
        case appLaunched
        /// The app came back to the foreground.
        case enteredForeground
        /// The app went to the background.
        case enteredBackground
        /// The user tapped the Cast button.
        case castButtonTapped
        /// The user dismissed the interstitial shown after the first tap.
        case interstitialDismissed
        /// The app called `startDiscovery`.
        case startDiscoveryRequested
        /// The app called `stopDiscovery`.
        case stopDiscoveryRequested
    }

    /// Where the app is.
    public enum Phase: Sendable, Hashable {
        /// Not launched yet.
        case notLaunched
        /// In the foreground.
        case foreground
        /// In the background.
        case background
    }

    /// What to do after an input.
    public struct Output: Sendable, Hashable {
        /// Whether discovery should be running now.
        public var shouldDiscover: Bool
        /// Show the SDK's interstitial now.
        public var showInterstitial: Bool
        /// Store "discovery has started once" now: discovery runs for the first time.
        public var rememberDiscoveryStarted: Bool
        /// The system's local-network prompt will appear now (first discovery on a platform with
        /// the permission).
        public var localNetworkPromptExpected: Bool

        /// Creates an output.
        public init(
            shouldDiscover: Bool, showInterstitial: Bool = false, rememberDiscoveryStarted: Bool = false,
            localNetworkPromptExpected: Bool = false
        ) {
            self.shouldDiscover = shouldDiscover
            self.showInterstitial = showInterstitial
            self.rememberDiscoveryStarted = rememberDiscoveryStarted
            self.localNetworkPromptExpected = localNetworkPromptExpected
        }
    }

    /// The options the app was configured with.
    public let options: CastOptions
    /// Whether discovery has started once, in this launch or an earlier one.
    public private(set) var discoveryHasStartedOnce: Bool
    /// Where the app is.
    public private(set) var phase = Phase.notLaunched
    /// Whether discovery is wanted while in the foreground.
    public private(set) var discoveryWanted = false
    /// Whether the interstitial is showing.
    public private(set) var interstitialShowing = false

    /// Creates the session of one launch; `discoveryHasStartedOnce` comes from the store.
    public init(options: CastOptions, discoveryHasStartedOnce: Bool) {
        self.options = options
        self.discoveryHasStartedOnce = discoveryHasStartedOnce
    }

    /// Whether discovery should be running now.
    public var shouldDiscover: Bool { discoveryWanted && phase == .foreground }

    private var autostarts: Bool {
        !options.disableDiscoveryAutostart && (!options.waitsForFirstTap || discoveryHasStartedOnce)
    }

    /// Applies an input and says what to do. Inputs that make no sense now (a tap in the
    /// background, a dismissal with no interstitial, anything before launch) change nothing.
    public mutating func handle(_ input: Input) -> Output {
        var showInterstitial = false
        switch (input, phase) {
        case (.appLaunched, .notLaunched), (.enteredForeground, .background):
            phase = .foreground
            if autostarts { discoveryWanted = true }
        case (.enteredBackground, .foreground):
            phase = .background
        case (.castButtonTapped, .foreground):
            if options.waitsForFirstTap, !discoveryHasStartedOnce, !discoveryWanted, !interstitialShowing {
                interstitialShowing = true
                showInterstitial = true
            }
        case (.interstitialDismissed, .foreground), (.interstitialDismissed, .background):
            if interstitialShowing {
                interstitialShowing = false
                discoveryWanted = true
            }
        case (.startDiscoveryRequested, .foreground), (.startDiscoveryRequested, .background):
            discoveryWanted = true
        case (.stopDiscoveryRequested, _):
            discoveryWanted = false
        default:
            break
        }
        var output = Output(shouldDiscover: shouldDiscover, showInterstitial: showInterstitial)
        if shouldDiscover, !discoveryHasStartedOnce {
            discoveryHasStartedOnce = true
            output.rememberDiscoveryStarted = true
            output.localNetworkPromptExpected = options.platform.requiresLocalNetworkPermission
        }
        return output
    }
}
