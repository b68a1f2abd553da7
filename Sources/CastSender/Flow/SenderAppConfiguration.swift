/// The sender app being modelled: its Cast SDK version, picker, SDK variant, the Xcode it was
/// built with, whether it presents its own dialogs, its Info.plist, and ``CastOptions`` (which
/// hold the platform).
public struct SenderAppConfiguration: Sendable, Hashable {
    /// The Cast SDK version the app ships.
    public var sdkVersion: SDKVersion
    /// The SDK's Cast button or the app's own picker.
    public var picker: CastPicker
    /// Whether the app uses `google-cast-sdk-no-bluetooth` (available from 4.4.3).
    public var noBluetoothVariant: Bool
    /// The start flags and the platform.
    public var options: CastOptions
    /// The Xcode the app was built with, when known (it fixes the iOS SDK: Xcode 10 has iOS 12's,
    /// 11 iOS 13's, 12 iOS 14's).
    public var xcodeVersion: SDKVersion?
    /// Whether the app presents its own local-network and cast-state dialogs through
    /// `GCKUICastButtonDelegate` (SDK 4.6.0 and later).
    public var appPresentsDialogs: Bool
    /// What the app's Info.plist declares, when given.
    public var infoPlist: SenderInfoPlist?

    /// Creates a configuration; the defaults are the SDK's current release with its Cast button.
    public init(
        sdkVersion: SDKVersion = SDKVersion(4, 8, 3), picker: CastPicker = .sdkCastButton,
        noBluetoothVariant: Bool = false, options: CastOptions = CastOptions(platform: .iOS(major: 17)),
        xcodeVersion: SDKVersion? = nil, appPresentsDialogs: Bool = false, infoPlist: SenderInfoPlist? = nil
    ) {
        self.sdkVersion = sdkVersion
        self.picker = picker
        self.noBluetoothVariant = noBluetoothVariant
        self.options = options
        self.xcodeVersion = xcodeVersion
        self.appPresentsDialogs = appPresentsDialogs
        self.infoPlist = infoPlist
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
    /// The first SDK whose custom-picker apps must call `startDiscovery` themselves.
    public static let customPickerStartVersion = SDKVersion(4, 5, 0)
    /// The first SDK that discovers on iOS 14 when built with Xcode 12 or later.
    public static let xcode12SDKVersion = SDKVersion(4, 5, 0)
    /// The SDK advised for apps built with the iOS 12 or 13 SDK.
    public static let olderBuildSDKVersion = SDKVersion(4, 4, 4)

    /// The options the SDK acts on: the first-tap flag is off before SDK 4.5.3, which lacks it;
    /// from SDK 4.5.0 an app with a custom picker must call `startDiscovery` itself, so the SDK
    /// starts nothing on its own (Google's iOS 14 notice; CastVideos-ios #95).
    public var effectiveOptions: CastOptions {
        var options = options
        if sdkVersion < Self.firstTapFlagVersion { options.startDiscoveryAfterFirstTapOnCastButton = false }
        if customPickerStartsDiscovery { options.disableDiscoveryAutostart = true }
        return options
    }

    /// Whether the app's own picker must start discovery (a custom picker, SDK 4.5.0 or later).
    public var customPickerStartsDiscovery: Bool {
        picker == .custom && sdkVersion >= Self.customPickerStartVersion
    }

    /// The iOS SDK the app was built with, from its Xcode (10: 12, 11: 13, 12: 14, ...); nil
    /// when the Xcode is not known.
    public var buildSDKMajor: Int? {
        xcodeVersion.map { $0.major + 2 }
    }

    /// Whether discovery finds nothing: SDK 4.4.8 or older built with Xcode 12 or later, on
    /// iOS 14 or later (Google's iOS 14 notice; the reference, section 6).
    public var findsNothing: Bool {
        guard platform.requiresLocalNetworkPermission, let xcode = xcodeVersion else { return false }
        return xcode >= SDKVersion(12) && sdkVersion < Self.xcode12SDKVersion
    }

    /// Whether the Cast button needs location permission: built with the iOS 13 SDK (Xcode 11)
    /// with a Cast SDK before 4.4.4, on iOS 13 or later (the seed's notes on older SDKs).
    public var castButtonNeedsLocation: Bool {
        guard buildSDKMajor == 13, sdkVersion < Self.olderBuildSDKVersion else { return false }
        if case .iOS(let major, _) = platform { return major >= 13 }
        return false
    }

    /// The NSBonjourServices entries the app's browses need and its Info.plist lacks, on iOS 14
    /// or later (where iOS refuses such a browse with NoAuth, -72008); empty without a plist.
    public var missingBonjourServices: [String] {
        guard platform.requiresLocalNetworkPermission, let plist = infoPlist else { return [] }
        let needed = ["_googlecast._tcp"] + options.criteria.applicationIDs.map { "_\($0)._googlecast._tcp" }
        let declared = Set(plist.bonjourServices.map { $0.lowercased() })
        return needed.filter { !declared.contains($0.lowercased()) }
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
            case .customPickerNeedsExplicitStart: customPickerStartsDiscovery
            }
        }
    }

    /// Whether the first-tap flag is set and would matter, but the SDK predates it (with a
    /// custom picker from 4.5.0 the app starts discovery, so the flag has nothing to act on).
    var firstTapFlagIgnored: Bool {
        options.waitsForFirstTap && sdkVersion < Self.firstTapFlagVersion && !customPickerStartsDiscovery
    }

    /// Checks that the app can exist: iOS version numbers in range, the no-bluetooth variant
    /// only from SDK 4.4.3, SDK 4.8.1 or later only on iOS 14 or later (the release notes), and
    /// the app's own dialogs only from SDK 4.6.0 (`GCKUICastButtonDelegate`).
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
        if appPresentsDialogs, sdkVersion < Self.alwaysVisibleButtonVersion {
            throw SenderConfigurationError(
                message:
                    "an app presents its own dialogs through GCKUICastButtonDelegate, which exists from Cast SDK 4.6.0, not \(sdkVersion)"
            )
        }
        if noBluetoothVariant, sdkVersion < Self.noBluetoothVariantVersion {
            throw SenderConfigurationError(
                message: "the no-bluetooth variant exists from Cast SDK 4.4.3, not \(sdkVersion)")
        }
    }
}
