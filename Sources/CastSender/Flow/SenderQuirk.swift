/// A known SDK behaviour that changes the flow, named in the ``SenderFlowStep`` where it acts.
public enum SenderQuirk: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// SDK 4.8.0 and 4.8.1 (release notes, issue threads): the first tap on the Cast button does
    /// nothing: no interstitial, no discovery. An explicit `startDiscovery` works; what the next
    /// tap does is inferred (``SenderInference/firstTapBugNextTapWorks``). (Modelled
    /// deterministically; the real bug is intermittent.)
    case firstTapDoesNotStartDiscovery
    /// iOS 13 with an SDK that has guest mode (before 4.8.1) and not the no-bluetooth variant:
    /// the first discovery shows the system's Bluetooth prompt.
    case bluetoothPromptOnIOS13
    /// `startDiscoveryAfterFirstTapOnCastButton` is set but the SDK predates it (before 4.5.3):
    /// discovery, and on iOS 14 the prompt, come at launch.
    case firstTapFlagUnavailable
    /// A custom picker with SDK 4.5.0 or later: the SDK starts no discovery on its own; the app
    /// must call `startDiscovery` (Google's iOS 14 notice; CastVideos-ios #95).
    case customPickerNeedsExplicitStart

    /// One sentence for people.
    public var summary: String {
        switch self {
        case .firstTapDoesNotStartDiscovery:
            "SDK 4.8.0/4.8.1 bug: the first tap on the Cast button does nothing; "
                + "call startDiscovery (or set startDiscoveryAfterFirstTapOnCastButton to false)"
        case .bluetoothPromptOnIOS13:
            "iOS 13 and an SDK with guest mode (before 4.8.1, not the no-bluetooth variant): "
                + "the Bluetooth prompt appears"
        case .firstTapFlagUnavailable:
            "startDiscoveryAfterFirstTapOnCastButton needs SDK 4.5.3 or later: ignored, "
                + "discovery starts at launch"
        case .customPickerNeedsExplicitStart:
            "custom picker with SDK 4.5.0 or later: the SDK starts no discovery; the app must "
                + "call startDiscovery"
        }
    }

    /// The case name, as in JSON.
    public var description: String { rawValue }
}
