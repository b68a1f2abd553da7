/// A known SDK behaviour that changes the flow, named in the ``SenderFlowStep`` where it acts.
public enum SenderQuirk: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// SDK 4.8.0 and 4.8.1: dismissing the first tap's interstitial does not start discovery; a
    /// second tap or an explicit `startDiscovery` does. (Modelled deterministically; the real
    /// bug is intermittent.)
    case firstTapDoesNotStartDiscovery
    /// iOS 13 with an SDK that has guest mode (before 4.8.1) and not the no-bluetooth variant:
    /// the first discovery shows the system's Bluetooth prompt.
    case bluetoothPromptOnIOS13
    /// `startDiscoveryAfterFirstTapOnCastButton` is set but the SDK predates it (before 4.5.3):
    /// discovery, and on iOS 14 the prompt, come at launch.
    case firstTapFlagUnavailable
    /// A custom picker under the first-tap rule: the SDK waits for a tap on a Cast button the
    /// app does not have, so discovery starts only when the app calls `startDiscovery`.
    case customPickerNeedsExplicitStart
    /// SDK 4.5.3 up to 4.6.0 under the first-tap rule: the Cast button shows only with devices,
    /// and there are none before the first tap, so the user cannot start discovery (a
    /// consequence of the two documented rules, not a bug report).
    case castButtonHiddenBeforeFirstTap

    /// One sentence for people.
    public var summary: String {
        switch self {
        case .firstTapDoesNotStartDiscovery:
            "SDK 4.8.0/4.8.1 bug: the first tap's interstitial did not start discovery; "
                + "tap again or call startDiscovery"
        case .bluetoothPromptOnIOS13:
            "iOS 13 and an SDK with guest mode (before 4.8.1, not the no-bluetooth variant): "
                + "the Bluetooth prompt appears"
        case .firstTapFlagUnavailable:
            "startDiscoveryAfterFirstTapOnCastButton needs SDK 4.5.3 or later: ignored, "
                + "discovery starts at launch"
        case .customPickerNeedsExplicitStart:
            "custom picker under the first-tap rule: nothing starts discovery until the app "
                + "calls startDiscovery"
        case .castButtonHiddenBeforeFirstTap:
            "SDK before 4.6.0 shows the Cast button only with devices, but the first-tap rule "
                + "keeps discovery off until a tap: the app must start discovery itself"
        }
    }

    /// The case name, as in JSON.
    public var description: String { rawValue }
}
