/// Findings about a Cast sender app's SDK version, Xcode version and deployment target,
/// following Google's documented requirements.
///
/// | code | when |
/// |---|---|
/// | `sdk-too-old-for-xcode` (error) | Xcode 12 or later (or unknown) and SDK < 4.5.0 |
/// | `cast-button-hidden-without-devices` (warning) | SDK < 4.6.0 |
/// | `sdk-below-recommended` (info) | SDK < 4.8.3 |
/// | `sdk-requires-ios-14` (error) | SDK >= 4.8.1 and deployment target < 14 |
/// | `first-tap-discovery-bug` (warning) | SDK 4.8.0 or 4.8.1 |
/// | `wifi-information-entitlement` (warning) | deployment target < 13 |
/// | `bluetooth-usage-description-required` (info) | ``needsBluetoothUsageDescription`` |
/// | `no-bluetooth-variant-unavailable` (warning) | no-Bluetooth variant with SDK < 4.4.3 |
/// | `built-with-ios-12-sdk` (warning) | Xcode 10 (the iOS 12 SDK), so slower discovery on iOS 13 |
/// | `cast-button-may-need-location` (warning) | Xcode 11 (the iOS 13 SDK) and SDK < 4.4.4 |
///
/// The last two follow Google's "iOS permissions and discovery" page (its iOS 13 section) and
/// need `--xcode`.
public struct SDKAdvice: Sendable, Hashable {
    /// The first SDK that discovers on iOS 14 when built with Xcode 12 or later.
    public static let minimumSDKForXcode12 = SDKVersion(4, 5, 0)
    /// The first SDK whose Cast button is always shown on Wi-Fi, with "No devices" dialogs.
    public static let alwaysVisibleButtonSDK = SDKVersion(4, 6, 0)
    /// The SDK version Google currently recommends.
    public static let recommendedSDK = SDKVersion(4, 8, 3)
    /// The first SDK that requires iOS 14 and has no guest mode (so no Bluetooth).
    public static let iOS14OnlySDK = SDKVersion(4, 8, 1)
    /// The first SDK with a `google-cast-sdk-no-bluetooth` variant.
    public static let noBluetoothVariantSDK = SDKVersion(4, 4, 3)
    /// The first Xcode whose builds need SDK 4.5.0 or later to discover on iOS 14.
    public static let xcode12 = SDKVersion(12)
    /// The SDK advised for apps built with the iOS 12 or 13 SDK and run on iOS 13.
    public static let iOS13AdvisedSDK = SDKVersion(4, 4, 4)

    /// The project checked.
    public let project: SenderProject

    /// Advice for `project`.
    public init(project: SenderProject) {
        self.project = project
    }

    /// Whether the Info.plist needs `NSBluetoothAlwaysUsageDescription` for the Cast SDK: the
    /// app supports iOS 13 or earlier (deployment target < 14), its SDK still has guest mode
    /// (< 4.8.1), and it does not link the no-Bluetooth variant (which exists from 4.4.3).
    public var needsBluetoothUsageDescription: Bool {
        let sdk = project.sdkVersion
        let variantAvoidsBluetooth =
            project.usesNoBluetoothVariant && sdk >= Self.noBluetoothVariantSDK
        return project.deploymentTarget < SDKVersion(14) && sdk < Self.iOS14OnlySDK
            && !variantAvoidsBluetooth
    }

    /// The findings, most serious first (in a fixed order within a severity).
    public var findings: [CheckFinding] {
        let sdk = project.sdkVersion
        let target = project.deploymentTarget
        var found: [CheckFinding] = []

        let builtWithXcode12 = project.xcodeVersion.map { $0 >= Self.xcode12 } ?? true
        if builtWithXcode12 && sdk < Self.minimumSDKForXcode12 {
            let xcode = project.xcodeVersion.map { "Xcode \($0)" } ?? "Xcode 12 or later"
            found.append(
                CheckFinding(
                    .sdkTooOldForXcode,
                    message: "Cast SDK \(sdk) built with \(xcode) finds no devices on iOS 14 and "
                        + "later; SDK 4.4.8 and older discover there only when built with Xcode 11.7 "
                        + "or earlier.",
                    fix: "Update the Cast SDK to \(Self.recommendedSDK) (at least "
                        + "\(Self.minimumSDKForXcode12), and \(Self.alwaysVisibleButtonSDK) or later "
                        + "for the always-visible Cast button)."))
        }
        if sdk >= Self.iOS14OnlySDK && target < SDKVersion(14) {
            found.append(
                CheckFinding(
                    .sdkRequiresIOS14,
                    message: "Cast SDK \(sdk) requires iOS 14, but the deployment target is "
                        + "iOS \(target).",
                    fix: "Raise the deployment target to iOS 14.0, or use a Cast SDK older than "
                        + "\(Self.iOS14OnlySDK) while the app supports iOS \(target)."))
        }
        if sdk < Self.alwaysVisibleButtonSDK {
            found.append(
                CheckFinding(
                    .castButtonHiddenWithoutDevices,
                    message: "With Cast SDK \(sdk) the Cast button is hidden until a device is "
                        + "found, so users who denied Local Network access see no button and no "
                        + "\"No devices available\" dialog pointing them to Settings.",
                    fix: "Update the Cast SDK to \(Self.alwaysVisibleButtonSDK) or later "
                        + "(\(Self.recommendedSDK) recommended)."))
        }
        if sdk >= SDKVersion(4, 8, 0) && sdk < SDKVersion(4, 8, 2) {
            found.append(
                CheckFinding(
                    .firstTapDiscoveryBug,
                    message: "Cast SDK \(sdk) has a known bug: the first tap on the Cast button may "
                        + "not start discovery, so the first launch finds no devices.",
                    fix: "Update the Cast SDK to \(Self.recommendedSDK), or set "
                        + "startDiscoveryAfterFirstTapOnCastButton to false, or call "
                        + "startDiscovery yourself after your own interstitial."))
        }
        if target < SDKVersion(13) {
            found.append(
                CheckFinding(
                    .wifiInformationEntitlement,
                    message: "The app supports iOS \(target); on iOS 12 Cast discovery needs the "
                        + "\"Access WiFi Information\" entitlement.",
                    fix: "Add the Access WiFi Information capability to the app target "
                        + "(com.apple.developer.networking.wifi-info), or raise the deployment "
                        + "target to iOS 13."))
        }
        if project.usesNoBluetoothVariant && sdk < Self.noBluetoothVariantSDK {
            found.append(
                CheckFinding(
                    .noBluetoothVariantUnavailable,
                    message: "The no-Bluetooth SDK variant (google-cast-sdk-no-bluetooth) exists "
                        + "from Cast SDK \(Self.noBluetoothVariantSDK); SDK \(sdk) has none, so the "
                        + "app uses Bluetooth on iOS 13.",
                    fix: "Update the Cast SDK to \(Self.recommendedSDK) (or at least "
                        + "\(Self.noBluetoothVariantSDK)) and link google-cast-sdk-no-bluetooth."))
        }
        if let xcode = project.xcodeVersion, xcode.major == 10 {
            found.append(
                CheckFinding(
                    .builtWithIOS12SDK,
                    message: "Built with Xcode \(xcode), the app has the iOS 12 SDK: on iOS 13 its Cast "
                        + "discovery is slower.",
                    fix: "Build with Xcode 11 or later and use Cast SDK \(Self.iOS13AdvisedSDK) or later "
                        + "(\(Self.recommendedSDK) recommended)."))
        }
        if let xcode = project.xcodeVersion, xcode.major == 11, sdk < Self.iOS13AdvisedSDK {
            found.append(
                CheckFinding(
                    .castButtonMayNeedLocation,
                    message: "Cast SDK \(sdk) built with Xcode \(xcode) (the iOS 13 SDK): on iOS 13 the "
                        + "Cast button may not appear unless the app has location permission.",
                    fix: "Update the Cast SDK to \(Self.iOS13AdvisedSDK) or later "
                        + "(\(Self.recommendedSDK) recommended)."))
        }
        if sdk < Self.recommendedSDK {
            found.append(
                CheckFinding(
                    .sdkBelowRecommended,
                    message: "Cast SDK \(sdk) is older than \(Self.recommendedSDK), the version "
                        + "Google recommends.",
                    fix: "Update the Cast SDK to \(Self.recommendedSDK)."))
        }
        if needsBluetoothUsageDescription {
            found.append(
                CheckFinding(
                    .bluetoothUsageDescriptionRequired,
                    message: "The app supports iOS \(target) with Cast SDK \(sdk), whose guest mode "
                        + "uses Bluetooth on iOS 13, so the Info.plist needs "
                        + "NSBluetoothAlwaysUsageDescription.",
                    fix: "Add NSBluetoothAlwaysUsageDescription to the Info.plist, or link "
                        + "google-cast-sdk-no-bluetooth (SDK \(Self.noBluetoothVariantSDK) or later), "
                        + "or raise the deployment target to iOS 14."))
        }
        return found.orderedBySeverity()
    }
}
