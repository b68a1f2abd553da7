/// How a sender app lets the user pick a Cast device.
public enum CastPicker: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The SDK's Cast button (`GCKUICastButton`) and its dialogs.
    case sdkCastButton
    /// The app's own button and picker: the SDK draws nothing, the app shows its own
    /// interstitial and calls `startDiscovery` itself.
    case custom

    /// The case name, as in JSON.
    public var description: String { rawValue }
}
