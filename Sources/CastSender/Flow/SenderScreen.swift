/// What a sender app shows over its own content at one moment.
///
/// Every case but ``none`` is modal: while one shows, the Cast button cannot be tapped.
/// ``noDevicesDialog`` and ``deniedDialog`` come with texts (``SenderDialog``) in each
/// ``SenderFlowStep``.
public enum SenderScreen: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Only the app's own content.
    case none
    /// The SDK's interstitial explaining why the app needs the local network, shown on the first
    /// Cast button tap under the first-tap rule.
    case sdkInterstitial
    /// The app's own interstitial (custom pickers), shown before it starts discovery.
    case appInterstitial
    /// The system's one-time local-network prompt (iOS 14 and later).
    case localNetworkPrompt
    /// The system's Bluetooth prompt (iOS 13, SDKs with guest mode).
    case bluetoothPrompt
    /// The device picker listing the visible devices.
    case devicePicker
    /// The "No devices available" dialog with its hints.
    case noDevicesDialog
    /// The dialog saying local-network access is off, with a "Go to Settings" button.
    case deniedDialog
    /// The SDK's local network permission dialog: a Cast button tap on iOS 14 or later before
    /// discovery ever ran (`GCKUICastButtonDelegate` reference, SDK 4.6.0 and later).
    case localNetworkPermissionDialog
    /// The app's own local network dialog, presented from `GCKUICastButtonDelegate`.
    case appLocalNetworkDialog
    /// The app's own cast-state dialog (in place of the no-devices dialog), presented from
    /// `GCKUICastButtonDelegate`.
    case appCastDialog

    /// Whether the screen is a system prompt (answered with ``SenderFlowInput/promptAnswered(granted:)``).
    public var isSystemPrompt: Bool { self == .localNetworkPrompt || self == .bluetoothPrompt }

    /// Whether the screen is the device dialog a Cast button tap opens: picker, no-devices or denied.
    public var isDeviceDialog: Bool {
        self == .devicePicker || self == .noDevicesDialog || self == .deniedDialog || self == .appCastDialog
    }
    /// Whether this is a local network dialog a tap opened before discovery ever ran.
    public var isPermissionDialog: Bool { self == .localNetworkPermissionDialog || self == .appLocalNetworkDialog }

    /// Whether the screen is an interstitial (the SDK's or the app's).
    public var isInterstitial: Bool { self == .sdkInterstitial || self == .appInterstitial }

    /// The case name, as in JSON.
    public var description: String { rawValue }
}
