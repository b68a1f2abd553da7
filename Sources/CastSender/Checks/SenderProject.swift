/// The build facts of an iOS Cast sender app that the SDK checks need.
///
/// Encodes as `{"sdkVersion": "4.8.3", "xcodeVersion": "15.4", "deploymentTarget": "14.0",
/// "usesNoBluetoothVariant": false}`; `xcodeVersion` may be absent.
public struct SenderProject: Sendable, Hashable, Codable {
    /// The Google Cast iOS sender SDK version, e.g. `4.8.3`.
    public var sdkVersion: SDKVersion
    /// The Xcode version the app is built with; `nil` means unknown, taken as Xcode 12 or later
    /// (every Xcode the App Store still accepts).
    public var xcodeVersion: SDKVersion?
    /// The app's minimum iOS version (`IPHONEOS_DEPLOYMENT_TARGET`), e.g. `13.0`.
    public var deploymentTarget: SDKVersion
    /// Whether the app links the `google-cast-sdk-no-bluetooth` variant of the SDK.
    public var usesNoBluetoothVariant: Bool

    /// Creates the build facts.
    public init(
        sdkVersion: SDKVersion,
        xcodeVersion: SDKVersion? = nil,
        deploymentTarget: SDKVersion,
        usesNoBluetoothVariant: Bool = false
    ) {
        self.sdkVersion = sdkVersion
        self.xcodeVersion = xcodeVersion
        self.deploymentTarget = deploymentTarget
        self.usesNoBluetoothVariant = usesNoBluetoothVariant
    }
}
