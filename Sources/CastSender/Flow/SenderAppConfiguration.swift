/// The sender app being modelled: its Cast SDK version, picker, SDK variant and
/// ``CastOptions`` (which hold the platform).
public struct SenderAppConfiguration: Sendable, Hashable {
    /// The Cast SDK version the app ships.
    public var sdkVersion: SDKVersion
    /// The SDK's Cast button or the app's own picker.
    public var picker: CastPicker
    /// Whether the app uses `google-cast-sdk-no-bluetooth` (available from 4.4.3).
    public var noBluetoothVariant: Bool
    /// The start flags and the platform.
    public var options: CastOptions

    /// Creates a configuration; the defaults are the SDK's current release with its Cast button.
    public init(
        sdkVersion: SDKVersion = SDKVersion(4, 8, 3), picker: CastPicker = .sdkCastButton,
        noBluetoothVariant: Bool = false, options: CastOptions = CastOptions(platform: .iOS(major: 17))
    ) {
        self.sdkVersion = sdkVersion
        self.picker = picker
        self.noBluetoothVariant = noBluetoothVariant
        self.options = options
    }

    /// The platform the app runs on.
    public var platform: SenderPlatform { options.platform }

    /// The first SDK with `startDiscoveryAfterFirstTapOnCastButton`.
    public static let firstTapFlagVersion = SDKVersion(4, 5, 3)
    /// The first SDK whose Cast button always shows on Wi-Fi.
    public static let alwaysVisibleButtonVersion = SDKVersion(4, 6, 0)
    /// The first SDK with the no-bluetooth variant.
    public static let noBluetoothVariantVersion = SDKVersion(4, 4, 3)
    /// The SDK that removed guest mode and raised the minimum iOS to 14.
    public static let guestModeRemovedVersion = SDKVersion(4, 8, 1)
    /// The SDKs with the first-tap bug.
    public static let firstTapBugVersions: Set<SDKVersion> = [SDKVersion(4, 8, 0), SDKVersion(4, 8, 1)]

    /// The options the SDK acts on: the first-tap flag is off before SDK 4.5.3, which lacks it.
    public var effectiveOptions: CastOptions {
        var options = options
        if sdkVersion < Self.firstTapFlagVersion { options.startDiscoveryAfterFirstTapOnCastButton = false }
        return options
    }

    /// Whether the first discovery shows the Bluetooth prompt: iOS 13, an SDK before 4.8.1, and
    /// not the no-bluetooth variant (which exists from 4.4.3).
    public var showsBluetoothPrompt: Bool {
        guard case .iOS(13, _) = platform else { return false }
        let variant = noBluetoothVariant && sdkVersion >= Self.noBluetoothVariantVersion
        return !variant && sdkVersion < Self.guestModeRemovedVersion
    }

    /// Whether the first tap's interstitial dismissal fails to start discovery (SDK 4.8.0 and
    /// 4.8.1 with the SDK's Cast button under the first-tap rule).
    public var hasFirstTapBug: Bool {
        picker == .sdkCastButton && effectiveOptions.waitsForFirstTap && Self.firstTapBugVersions.contains(sdkVersion)
    }

    /// Whether the Cast button shows on Wi-Fi even with no devices (SDK 4.6.0 and later).
    public var castButtonAlwaysVisible: Bool { sdkVersion >= Self.alwaysVisibleButtonVersion }

    /// The quirks that can act for this configuration, in ``SenderQuirk`` order.
    public var quirks: [SenderQuirk] {
        SenderQuirk.allCases.filter { quirk in
            switch quirk {
            case .firstTapDoesNotStartDiscovery: hasFirstTapBug
            case .bluetoothPromptOnIOS13: showsBluetoothPrompt
            case .firstTapFlagUnavailable: firstTapFlagIgnored
            case .customPickerNeedsExplicitStart: picker == .custom && effectiveOptions.waitsForFirstTap
            case .castButtonHiddenBeforeFirstTap:
                picker == .sdkCastButton && effectiveOptions.waitsForFirstTap && !castButtonAlwaysVisible
            }
        }
    }

    /// Whether the first-tap flag is set and would matter, but the SDK predates it.
    var firstTapFlagIgnored: Bool {
        options.waitsForFirstTap && !effectiveOptions.waitsForFirstTap
    }

    /// Checks that the app can exist: iOS version numbers in range, the no-bluetooth variant
    /// only from SDK 4.4.3, and SDK 4.8.1 or later only on iOS 14 or later.
    ///
    /// - Throws: ``SenderConfigurationError`` naming the first broken rule.
    public func validate() throws(SenderConfigurationError) {
        if case .iOS(let major, let minor) = platform {
            guard (1...99).contains(major), (0...99).contains(minor) else {
                throw SenderConfigurationError(message: "iOS \(major).\(minor) is not a valid iOS version")
            }
            if major < 14, sdkVersion >= Self.guestModeRemovedVersion {
                throw SenderConfigurationError(
                    message: "Cast SDK \(sdkVersion) needs iOS 14 or later (4.8.1 raised the minimum), not \(platform)")
            }
        }
        if noBluetoothVariant, sdkVersion < Self.noBluetoothVariantVersion {
            throw SenderConfigurationError(
                message: "the no-bluetooth variant exists from Cast SDK 4.4.3, not \(sdkVersion)")
        }
    }
}
