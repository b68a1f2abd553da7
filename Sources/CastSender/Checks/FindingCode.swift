/// The stable machine code of a check finding, e.g. `missing-googlecast-service`.
///
/// Codes never change meaning; tools may match on them. Each code has one ``severity``. They
/// encode as their raw string.
public enum FindingCode: String, Sendable, Hashable, Codable, CaseIterable,
    CustomStringConvertible
{
    // MARK: Info.plist

    /// `NSBonjourServices` is absent.
    case missingBonjourServices = "missing-bonjour-services"
    /// `NSBonjourServices` is not an array.
    case bonjourServicesNotArray = "bonjour-services-not-array"
    /// An `NSBonjourServices` entry is not a string.
    case bonjourServiceNotString = "bonjour-service-not-string"
    /// `NSBonjourServices` lacks `_googlecast._tcp`.
    case missingGoogleCastService = "missing-googlecast-service"
    /// `NSBonjourServices` lacks `_<APPID>._googlecast._tcp` for an application ID.
    case missingApplicationService = "missing-application-service"
    /// An entry is written with `_sub` (`_<APPID>._sub._googlecast._tcp`).
    case serviceWithSubtypeLabel = "service-with-sub"
    /// An entry's application ID has lower-case letters (`_cc1ad845._googlecast._tcp`).
    case lowercaseApplicationID = "lowercase-application-id"
    /// An entry is not a DNS-SD service type, or has control or invisible characters.
    case malformedBonjourService = "malformed-bonjour-service"
    /// `NSLocalNetworkUsageDescription` is absent.
    case missingLocalNetworkUsageDescription = "missing-local-network-usage-description"
    /// `NSLocalNetworkUsageDescription` is empty or only white space.
    case emptyLocalNetworkUsageDescription = "empty-local-network-usage-description"
    /// `NSLocalNetworkUsageDescription` is not a string.
    case localNetworkUsageDescriptionNotString = "local-network-usage-description-not-string"
    /// `NSBluetoothAlwaysUsageDescription` is needed (see ``SDKAdvice``) but absent or empty.
    case missingBluetoothUsageDescription = "missing-bluetooth-usage-description"
    /// `NSBluetoothAlwaysUsageDescription` is present but the Cast SDK does not need it.
    case bluetoothUsageDescriptionNotNeeded = "bluetooth-usage-description-not-needed"
    /// Whether `NSBluetoothAlwaysUsageDescription` is needed cannot be decided without the
    /// SDK version and deployment target.
    case bluetoothNeedUnknown = "bluetooth-need-unknown"

    // MARK: SDK, Xcode and deployment target

    /// Built with Xcode 12 or later, an SDK older than 4.5.0 finds no devices on iOS 14.
    case sdkTooOldForXcode = "sdk-too-old-for-xcode"
    /// Before SDK 4.6.0 the Cast button is hidden while no device is found, and the
    /// "No devices available" dialogs do not exist.
    case castButtonHiddenWithoutDevices = "cast-button-hidden-without-devices"
    /// The SDK is older than the version Google recommends (4.8.3).
    case sdkBelowRecommended = "sdk-below-recommended"
    /// SDK 4.8.1 and later require iOS 14, but the deployment target is lower.
    case sdkRequiresIOS14 = "sdk-requires-ios-14"
    /// SDK 4.8.0 and 4.8.1 may not start discovery on the first tap of the Cast button.
    case firstTapDiscoveryBug = "first-tap-discovery-bug"
    /// The app supports iOS 12, where discovery needs the "Access WiFi Information" entitlement.
    case wifiInformationEntitlement = "wifi-information-entitlement"
    /// The app supports iOS 13 with an SDK that uses Bluetooth for guest mode, so
    /// `NSBluetoothAlwaysUsageDescription` is required.
    case bluetoothUsageDescriptionRequired = "bluetooth-usage-description-required"
    /// The no-Bluetooth SDK variant is requested with an SDK older than 4.4.3, which has none.
    case noBluetoothVariantUnavailable = "no-bluetooth-variant-unavailable"
    /// Built with the iOS 12 SDK (Xcode 10): discovery is slower on iOS 13; SDK 4.4.4 is advised.
    case builtWithIOS12SDK = "built-with-ios-12-sdk"
    /// Built with the iOS 13 SDK (Xcode 11) and an SDK before 4.4.4: the Cast button may not
    /// appear without location permission.
    case castButtonMayNeedLocation = "cast-button-may-need-location"

    /// How serious findings with this code are; every code has exactly one severity.
    public var severity: FindingSeverity {
        switch self {
        case .missingBonjourServices, .bonjourServicesNotArray, .bonjourServiceNotString,
            .missingGoogleCastService, .missingApplicationService, .serviceWithSubtypeLabel,
            .lowercaseApplicationID, .missingLocalNetworkUsageDescription,
            .emptyLocalNetworkUsageDescription, .localNetworkUsageDescriptionNotString,
            .missingBluetoothUsageDescription, .sdkTooOldForXcode, .sdkRequiresIOS14:
            .error
        case .malformedBonjourService, .castButtonHiddenWithoutDevices, .firstTapDiscoveryBug,
            .wifiInformationEntitlement, .noBluetoothVariantUnavailable, .builtWithIOS12SDK,
            .castButtonMayNeedLocation:
            .warning
        case .bluetoothUsageDescriptionNotNeeded, .bluetoothNeedUnknown, .sdkBelowRecommended,
            .bluetoothUsageDescriptionRequired:
            .info
        }
    }

    /// The raw code, e.g. `missing-googlecast-service`.
    public var description: String { rawValue }
}
