import CastDiscovery

/// What happens to a sender app: the user, the system, the network, or the app's own code.
public enum SenderFlowInput: Sendable, Hashable, CustomStringConvertible {
    /// The app launches for the first time in this model (in the foreground).
    case appLaunched
    /// The app is terminated and launched again; what ``SenderFlowState`` holds survives.
    case relaunched
    /// The app goes to the background (discovery stops).
    case enteredBackground
    /// The app comes back to the foreground.
    case enteredForeground
    /// The user taps the Cast button (for a custom picker: the app's own button).
    case castButtonTapped
    /// The user dismisses the interstitial that shows (the SDK's or the app's).
    case interstitialDismissed
    /// The user answers the system prompt that shows (local network, or Bluetooth on iOS 13).
    case promptAnswered(granted: Bool)
    /// The user turns Local Network access for the app on or off in Settings.
    case settingsChanged(granted: Bool)
    /// The app calls `startDiscovery`.
    case startDiscoveryRequested
    /// The app calls `stopDiscovery`.
    case stopDiscoveryRequested
    /// The user closes the device dialog (picker, no-devices or denied dialog).
    case dialogDismissed
    /// The user taps "Go to Settings" in the denied dialog: the dialog closes and the app goes
    /// to the background.
    case goToSettingsTapped
    /// The phone joins (true) or leaves (false) Wi-Fi.
    case wifiChanged(Bool)
    /// The devices on the network now, in the discovery manager's order.
    case deviceListChanged([CastDevice])
    /// The user picks a device in the picker, by unique id (`googlecast:<id>`), id or friendly
    /// name: a session starts connecting.
    case deviceSelected(String)
    /// The session being set up is connected.
    case sessionStarted
    /// The session ends (or fails to connect).
    case sessionEnded
    /// The user allows (true) or refuses (false) the app location access.
    case locationPermissionChanged(granted: Bool)

    /// The input's name, as in scenario files (`promptAnswered`, `wifiChanged`, ...).
    public var name: String { kind.rawValue }

    /// Every input name, in declaration order.
    public static let names = Name.allCases.map(\.rawValue)

    /// The name with its argument, e.g. `promptAnswered(granted: false)`.
    public var description: String {
        switch self {
        case .promptAnswered(let granted): "promptAnswered(granted: \(granted))"
        case .settingsChanged(let granted): "settingsChanged(granted: \(granted))"
        case .locationPermissionChanged(let granted): "locationPermissionChanged(granted: \(granted))"
        case .wifiChanged(let on): "wifiChanged(\(on))"
        case .deviceListChanged(let devices):
            "deviceListChanged([\(devices.map { "\"\($0.friendlyName)\"" }.joined(separator: ", "))])"
        case .deviceSelected(let device): "deviceSelected(\"\(device)\")"
        default: name
        }
    }
}
