import CastDiscovery
import CastSender
import Foundation
import Testing

@Suite("SenderFlow")
struct SenderFlowTests {
    static let tv = try! SenderFlow.simulatedDevice(name: "Living Room TV", id: "406c2bcdd5995755059b5bb045326056")

    static func configuration(
        ios: Int = 14, sdk: SDKVersion = SDKVersion(4, 8, 3), picker: CastPicker = .sdkCastButton,
        noBluetooth: Bool = false, disableAutostart: Bool = false, firstTap: Bool = true
    ) -> SenderAppConfiguration {
        SenderAppConfiguration(
            sdkVersion: sdk, picker: picker, noBluetoothVariant: noBluetooth,
            options: CastOptions(
                disableDiscoveryAutostart: disableAutostart, startDiscoveryAfterFirstTapOnCastButton: firstTap,
                platform: .iOS(major: ios)))
    }

    /// An app that has run before with access granted: discovery runs at launch, no prompt.
    static let returning = SenderFlowState(discoveryHasStartedOnce: true, localNetworkPermission: .granted)

    struct ButtonRow: Sendable, CustomStringConvertible {
        var sdk: SDKVersion
        var picker: CastPicker = .sdkCastButton
        var wifi = true
        var devices: Bool
        var visible: Bool
        var reason: CastButtonVisibility.Reason
        var description: String { "SDK \(sdk) \(picker) Wi-Fi \(wifi) devices \(devices)" }
    }

    static let buttonRows: [ButtonRow] = [
        ButtonRow(sdk: SDKVersion(4, 8, 3), devices: false, visible: true, reason: .alwaysShownOnWiFi),
        ButtonRow(sdk: SDKVersion(4, 6, 0), devices: false, visible: true, reason: .alwaysShownOnWiFi),
        ButtonRow(sdk: SDKVersion(4, 6, 0), devices: true, visible: true, reason: .alwaysShownOnWiFi),
        ButtonRow(sdk: SDKVersion(4, 5, 9), devices: false, visible: false, reason: .noDevices),
        ButtonRow(sdk: SDKVersion(4, 5, 9), devices: true, visible: true, reason: .devicesAvailable),
        ButtonRow(sdk: SDKVersion(4, 8, 3), wifi: false, devices: true, visible: false, reason: .offWiFi),
        ButtonRow(sdk: SDKVersion(4, 5, 0), wifi: false, devices: true, visible: false, reason: .offWiFi),
        ButtonRow(sdk: SDKVersion(4, 8, 3), picker: .custom, devices: true, visible: false, reason: .customPicker),
    ]

    @Test(
        "Cast button: before 4.6.0 only with devices, from 4.6.0 always on Wi-Fi, off Wi-Fi hidden",
        arguments: buttonRows)
    func castButton(row: ButtonRow) {
        var flow = SenderFlow(
            configuration: Self.configuration(sdk: row.sdk, picker: row.picker), state: Self.returning, wifi: row.wifi,
            networkDevices: row.devices ? [Self.tv] : [])
        var step = flow.handle(.appLaunched)
        // A custom picker from SDK 4.5.0: the app itself starts discovery, on every launch.
        if row.picker == .custom {
            #expect(!step.discoveryRunning)
            step = flow.handle(.startDiscoveryRequested)
        }
        #expect(step.discoveryRunning)
        #expect(step.castButton == CastButtonVisibility(isVisible: row.visible, reason: row.reason))
        #expect(step.castState == (row.devices && row.wifi ? .notConnected : .noDevicesAvailable))
    }

    @Test(
        "Bluetooth prompt: iOS 13, SDK before 4.8.1, unless the no-bluetooth variant (from 4.4.3)",
        arguments: [
            (13, SDKVersion(4, 7, 0), false, true), (13, SDKVersion(4, 7, 0), true, false),
            (13, SDKVersion(4, 4, 2), true, true), (13, SDKVersion(4, 4, 3), true, false),
            (13, SDKVersion(4, 8, 0), false, true), (13, SDKVersion(4, 8, 1), false, false),
            (14, SDKVersion(4, 7, 0), false, false), (12, SDKVersion(4, 7, 0), false, false),
        ])
    func bluetooth(ios: Int, sdk: SDKVersion, variant: Bool, prompts: Bool) {
        let configuration = Self.configuration(ios: ios, sdk: sdk, noBluetooth: variant)
        #expect(configuration.showsBluetoothPrompt == prompts)
        #expect(configuration.quirks.contains(.bluetoothPromptOnIOS13) == prompts)
    }

    @Test(
        "the first-tap bug: SDK 4.8.0 and 4.8.1, SDK button, first-tap rule",
        arguments: [
            (SDKVersion(4, 7, 1), CastPicker.sdkCastButton, true, false),
            (SDKVersion(4, 8, 0), .sdkCastButton, true, true),
            (SDKVersion(4, 8, 1), .sdkCastButton, true, true), (SDKVersion(4, 8, 2), .sdkCastButton, true, false),
            (SDKVersion(4, 8, 0), .custom, true, false), (SDKVersion(4, 8, 1), .sdkCastButton, false, false),
        ])
    func firstTapBug(sdk: SDKVersion, picker: CastPicker, firstTap: Bool, bug: Bool) {
        let configuration = Self.configuration(sdk: sdk, picker: picker, firstTap: firstTap)
        #expect(configuration.hasFirstTapBug == bug)
        var flow = SenderFlow(configuration: configuration, networkDevices: [Self.tv])
        flow.handle(.appLaunched)
        let tapped = flow.handle(.castButtonTapped)
        if firstTap, picker == .sdkCastButton {
            // The threads: the first tap does nothing (no interstitial, no discovery).
            #expect(tapped.quirks.contains(.firstTapDoesNotStartDiscovery) == bug)
            #expect(tapped.screen == (bug ? .none : .sdkInterstitial))
            #expect(!tapped.discoveryRunning)
            if !bug { #expect(flow.handle(.interstitialDismissed).screen == .localNetworkPrompt) }
        }
    }

    @Test(
        "configuration validation",
        arguments: [
            (13, SDKVersion(4, 8, 1), false, "needs iOS 14 or later"), (13, SDKVersion(4, 4, 0), true, "4.4.3"),
            (0, SDKVersion(4, 8, 3), false, "not a valid iOS version"), (13, SDKVersion(4, 8, 0), false, ""),
            (14, SDKVersion(4, 4, 3), true, ""),
        ])
    func validation(ios: Int, sdk: SDKVersion, variant: Bool, message: String) {
        let configuration = Self.configuration(ios: ios, sdk: sdk, noBluetooth: variant)
        do {
            try configuration.validate()
            #expect(message.isEmpty)
        } catch {
            #expect(!message.isEmpty && error.message.contains(message), "\(error)")
        }
    }

    @Test("dialog texts: hints by platform, the denied dialog's Go to Settings")
    func dialogs() {
        // iOS 14+, SDK 4.6.0+, a tap before discovery ever ran: the SDK's local network
        // permission dialog (GCKUICastButtonDelegate reference), not the no-devices dialog.
        var never = SenderFlow(configuration: Self.configuration(disableAutostart: true))
        never.handle(.appLaunched)
        let permission = never.handle(.castButtonTapped)
        #expect(permission.screen == .localNetworkPermissionDialog)
        #expect(permission.localNetworkPermission == .notDetermined)
        #expect(permission.dialog?.hints.contains(SenderDialog.localNetworkHint) == false, "no Settings hint yet")
        var ios14 = SenderFlow(configuration: Self.configuration(), state: Self.returning)
        ios14.handle(.appLaunched)
        let noDevices = ios14.handle(.castButtonTapped)
        #expect(noDevices.screen == .noDevicesDialog)
        #expect(noDevices.dialog?.hints == [SenderDialog.sameWiFiHint, SenderDialog.localNetworkHint])
        var ios13 = SenderFlow(
            configuration: Self.configuration(ios: 13, sdk: SDKVersion(4, 7, 0), disableAutostart: true))
        ios13.handle(.appLaunched)
        #expect(ios13.handle(.castButtonTapped).dialog?.hints == [SenderDialog.sameWiFiHint])
        var denied = SenderFlow(
            configuration: Self.configuration(),
            state: SenderFlowState(discoveryHasStartedOnce: true, localNetworkPermission: .denied),
            networkDevices: [Self.tv])
        denied.handle(.appLaunched)
        let step = denied.handle(.castButtonTapped)
        #expect(step.screen == .deniedDialog)
        #expect(step.dialog?.buttons.first == SenderDialog.goToSettingsButton)
        #expect(step.dialog?.hints.first?.contains("Local Network Access") == true)
        #expect(step.visibleDevices.isEmpty, "none while denied")
        #expect(step.inferred.contains(.deniedDialogWithSettingsButton), "no source states a separate denied dialog")
    }

    @Test("the prompt shows once per install, whatever the later launches")
    func promptOnce() {
        for granted in [true, false] {
            var state = SenderFlowState()
            var prompts = 0
            for _ in 0..<3 {
                var flow = SenderFlow(configuration: Self.configuration(firstTap: false), state: state)
                if flow.handle(.appLaunched).screen == .localNetworkPrompt {
                    prompts += 1
                    flow.handle(.promptAnswered(granted: granted))
                }
                flow.handle(.enteredBackground)
                #expect(flow.handle(.enteredForeground).screen == .none)
                state = flow.state
            }
            #expect(prompts == 1)
            #expect(state.localNetworkPermission == (granted ? .granted : .denied))
        }
    }

    struct Ignored: Sendable, CustomStringConvertible {
        var name: String
        var setup: [SenderFlowInput]
        var input: SenderFlowInput
        var note: String
        var description: String { name }
    }

    static let ignored: [Ignored] = [
        Ignored(name: "tap before launch", setup: [], input: .castButtonTapped, note: "has not launched"),
        Ignored(name: "second launch", setup: [.appLaunched], input: .appLaunched, note: "already running"),
        Ignored(
            name: "tap in background", setup: [.appLaunched, .enteredBackground], input: .castButtonTapped,
            note: "not in the foreground"),
        Ignored(
            name: "tap behind the interstitial", setup: [.appLaunched, .castButtonTapped], input: .castButtonTapped,
            note: "sdkInterstitial is showing"),
        Ignored(
            name: "answer with no prompt", setup: [.appLaunched], input: .promptAnswered(granted: true),
            note: "no system prompt"),
        Ignored(
            name: "Settings before asking", setup: [.appLaunched, .enteredBackground],
            input: .settingsChanged(granted: true), note: "only once it has asked"),
        Ignored(
            name: "Settings in the foreground", setup: [.appLaunched], input: .settingsChanged(granted: true),
            note: "send enteredBackground first"),
        Ignored(
            name: "prompt answer in background", setup: [.appLaunched, .enteredBackground],
            input: .promptAnswered(granted: true), note: "shows only over the app in the foreground"),
        Ignored(
            name: "dismiss with no interstitial", setup: [.appLaunched], input: .interstitialDismissed,
            note: "no interstitial"),
        Ignored(
            name: "select with no picker", setup: [.appLaunched], input: .deviceSelected("Living Room TV"),
            note: "picker is not showing"),
        Ignored(
            name: "session with none connecting", setup: [.appLaunched], input: .sessionStarted,
            note: "no session is connecting"),
        Ignored(
            name: "Go to Settings with no dialog", setup: [.appLaunched], input: .goToSettingsTapped,
            note: "denied dialog is not showing"),
        Ignored(
            name: "foreground while in foreground", setup: [.appLaunched], input: .enteredForeground,
            note: "not in the background"),
    ]

    @Test("inputs that cannot happen now change nothing and say why", arguments: ignored)
    func ignoredInput(_ row: Ignored) {
        var flow = SenderFlow(configuration: Self.configuration(), networkDevices: [Self.tv])
        for input in row.setup { flow.handle(input) }
        let before = flow.snapshot
        let after = flow.handle(row.input)
        #expect(after.notes.count == 1)
        #expect(after.notes.first?.contains(row.note) == true, "\(after.notes)")
        var comparable = after
        comparable.input = before.input
        comparable.notes = before.notes
        comparable.quirks = before.quirks
        #expect(comparable == before)
    }

    @Test("an open dialog follows the device list; off Wi-Fi the session reconnects (inferred)")
    func live() {
        var flow = SenderFlow(configuration: Self.configuration(), state: Self.returning, networkDevices: [Self.tv])
        flow.handle(.appLaunched)
        #expect(flow.handle(.castButtonTapped).screen == .devicePicker)
        #expect(flow.handle(.deviceListChanged([])).screen == .noDevicesDialog)
        #expect(flow.handle(.deviceListChanged([Self.tv])).screen == .devicePicker)
        #expect(flow.handle(.deviceSelected("googlecast:406c2bcdd5995755059b5bb045326056")).castState == .connecting)
        #expect(flow.handle(.sessionStarted).castState == .connected)
        let off = flow.handle(.wifiChanged(false))
        #expect(off.castState == .connecting)
        #expect(off.notes.contains { $0.contains("tries to reconnect") })
        #expect(off.inferred == [.sessionReconnectsAfterWiFi])
        #expect(flow.handle(.wifiChanged(true)).castState == .connected)
        // A session still connecting when Wi-Fi went comes back connecting, not connected.
        flow.handle(.sessionEnded)
        flow.handle(.castButtonTapped)
        flow.handle(.deviceSelected("Living Room TV"))
        flow.handle(.wifiChanged(false))
        #expect(flow.handle(.wifiChanged(true)).castState == .connecting)
    }

    @Test("JSON: stable field names, the SDK's number, a round trip")
    func json() throws {
        var flow = SenderFlow(configuration: Self.configuration(disableAutostart: true))
        flow.handle(.appLaunched)
        let step = flow.handle(.castButtonTapped)
        let data = try JSONEncoder().encode(step)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "input", "phase", "screen", "dialog", "discoveryRunning", "discoveryHasStartedOnce",
                "localNetworkPermission", "wifi", "visibleDevices", "castButton", "castState", "castStateValue",
                "quirks",
                "inferred", "blockedBrowses", "notes",
            ])
        #expect(object["castState"] as? String == "noDevicesAvailable")
        #expect(object["castStateValue"] as? Int == 0)
        #expect(object["screen"] as? String == "localNetworkPermissionDialog")
        #expect((object["castButton"] as? [String: Any])?.keys.sorted() == ["reason", "visible"])
        #expect((object["dialog"] as? [String: Any])?.keys.sorted() == ["buttons", "hints", "title"])
        #expect(try JSONDecoder().decode(SenderFlowStep.self, from: data) == step)
        #expect(CastState.allCases.map(\.rawValue) == [0, 1, 2, 3])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([CastState].self, from: Data(#"["idle"]"#.utf8))
        }
    }

    @Test("description: one labelled line per field, quirks and notes included, names escaped")
    func description() throws {
        let odd = try SenderFlow.simulatedDevice(name: "TV\u{1B}[2J", id: "odd")
        var flow = SenderFlow(configuration: Self.configuration(sdk: SDKVersion(4, 8, 0)), networkDevices: [odd])
        flow.handle(.appLaunched)
        let text = flow.handle(.castButtonTapped).description
        #expect(text.contains("input:       castButtonTapped"))
        #expect(text.contains("screen:      none"))
        #expect(text.contains("cast state:  noDevicesAvailable (0)"))
        #expect(text.contains("quirk:       firstTapDoesNotStartDiscovery"))
        #expect(flow.handle(.castButtonTapped).description.contains("inferred:    firstTapBugNextTapWorks"))
        flow.handle(.interstitialDismissed)
        let picker = flow.handle(.promptAnswered(granted: true)).description
        #expect(picker.contains(#"1 visible: "TV\u{1B}[2J""#))
        #expect(!picker.unicodeScalars.contains("\u{1B}"))
    }

    @Test(
        "Info.plist: iOS 14+ refuses a browse missing from NSBonjourServices; the prompt shows the plist's text",
        arguments: [
            (["_googlecast._tcp", "_CC1AD845._googlecast._tcp"], 14, [String]()),
            (["_googlecast._tcp"], 14, ["_CC1AD845._googlecast._tcp"]),
            (["_CC1AD845._googlecast._tcp"], 17, ["_googlecast._tcp"]),
            ([], 16, ["_googlecast._tcp", "_CC1AD845._googlecast._tcp"]),
            (["_GOOGLECAST._TCP", "_cc1ad845._googlecast._tcp"], 14, []),
            ([], 13, []),
        ])
    func infoPlist(services: [String], ios: Int, blocked: [String]) {
        var configuration = Self.configuration(
            ios: ios, sdk: ios < 14 ? SDKVersion(4, 7, 0) : SDKVersion(4, 8, 3), firstTap: false)
        configuration.infoPlist = SenderInfoPlist(
            bonjourServices: services, localNetworkUsageDescription: "Finds your TV.", appName: "Demo")
        var flow = SenderFlow(configuration: configuration, networkDevices: [Self.tv])
        let launch = flow.handle(.appLaunched)
        if ios >= 14 {
            #expect(launch.screen == .localNetworkPrompt)
            #expect(launch.dialog?.hints.contains("Finds your TV.") == true, "\(launch)")
            #expect(launch.dialog?.title.contains("Demo") == true, "\(launch)")
            flow.handle(.promptAnswered(granted: true))
        }
        let step = flow.snapshot
        #expect(step.blockedBrowses == blocked)
        #expect(step.visibleDevices.isEmpty == !blocked.isEmpty)
        for entry in blocked { #expect(step.notes.contains { $0.contains("add \(entry) to NSBonjourServices") }) }
    }

    @Test("the prompt without an Info.plist says its text is unknown; with one lacking the key, that it is missing")
    func promptText() {
        var unknown = SenderFlow(configuration: Self.configuration(firstTap: false))
        #expect(unknown.handle(.appLaunched).dialog?.hints.first?.contains("unknown without its Info.plist") == true)
        var configuration = Self.configuration(firstTap: false)
        configuration.infoPlist = SenderInfoPlist(bonjourServices: ["_googlecast._tcp", "_CC1AD845._googlecast._tcp"])
        var missing = SenderFlow(configuration: configuration)
        let step = missing.handle(.appLaunched)
        #expect(
            step.dialog?.hints.contains { $0.contains("no NSLocalNetworkUsageDescription") } == true,
            "\(step)")
        #expect(step.inferred.contains(.localNetworkPromptWording))
    }

    @Test("GCKUICastButtonDelegate (4.6.0+): the app's own local-network and cast-state dialogs")
    func appDialogs() {
        var configuration = Self.configuration(disableAutostart: true)
        configuration.appPresentsDialogs = true
        var flow = SenderFlow(configuration: configuration)
        flow.handle(.appLaunched)
        #expect(flow.handle(.castButtonTapped).screen == .appLocalNetworkDialog)
        flow.handle(.dialogDismissed)
        flow.handle(.startDiscoveryRequested)
        flow.handle(.promptAnswered(granted: true))
        #expect(flow.handle(.castButtonTapped).screen == .appCastDialog)
        configuration.sdkVersion = SDKVersion(4, 5, 3)
        #expect(throws: SenderConfigurationError.self) { try configuration.validate() }
    }

    @Test(
        "built with Xcode 11 and SDK before 4.4.4: the button waits for location permission (inferred)",
        arguments: [
            (SDKVersion(4, 4, 3), "11.7", true), (SDKVersion(4, 4, 4), "11.7", false),
            (SDKVersion(4, 4, 3), "10.3", false), (SDKVersion(4, 4, 3), "12.0", false),
        ])
    func location(sdk: SDKVersion, xcode: String, needs: Bool) throws {
        var configuration = Self.configuration(ios: 13, sdk: sdk, noBluetooth: true)
        configuration.xcodeVersion = try SDKVersion(parsing: xcode)
        #expect(configuration.castButtonNeedsLocation == needs)
        var flow = SenderFlow(configuration: configuration, networkDevices: [Self.tv])
        let launch = flow.handle(.appLaunched)
        #expect(launch.castButton.isVisible == !needs)
        #expect(launch.inferred.contains(.castButtonHiddenWithoutLocation) == needs)
        #expect(flow.handle(.locationPermissionChanged(granted: true)).castButton.isVisible)
    }

    @Test(
        "a custom picker from SDK 4.5.0 starts nothing at launch; before 4.5.0 the SDK starts discovery",
        arguments: [(SDKVersion(4, 4, 8), true), (SDKVersion(4, 5, 0), false), (SDKVersion(4, 8, 3), false)])
    func customPicker(sdk: SDKVersion, autostarts: Bool) {
        var flow = SenderFlow(configuration: Self.configuration(sdk: sdk, picker: .custom), state: Self.returning)
        let launch = flow.handle(.appLaunched)
        #expect(launch.discoveryRunning == autostarts)
        #expect(launch.quirks.contains(.customPickerNeedsExplicitStart) == !autostarts)
        #expect(!launch.quirks.contains(.firstTapFlagUnavailable) || autostarts)
    }

    @Test("simulateLaunch: launch and tap on the real device list", arguments: [false, true])
    func simulateLaunch(tap: Bool) {
        let (flow, steps) = SenderFlow.simulateLaunch(
            configuration: Self.configuration(), state: Self.returning, devices: [Self.tv], tap: tap)
        #expect(steps.count == (tap ? 2 : 1))
        #expect(steps.last?.screen == (tap ? .devicePicker : SenderScreen.none))
        #expect(steps.last?.visibleDevices.map(\.friendlyName) == ["Living Room TV"])
        #expect(flow.state == Self.returning)
    }

    @Test(
        "platform parsing",
        arguments: [
            ("linux", SenderPlatform.linux), ("Linux", .linux), ("iOS 14.5", .iOS(major: 14, minor: 5)),
            ("13", .iOS(major: 13)),
            ("ios 17.4.1", .iOS(major: 17, minor: 4)),
        ])
    func platform(text: String, platform: SenderPlatform) throws {
        #expect(try SenderPlatform(parsing: text) == platform)
    }

    @Test("platform parsing rejects", arguments: ["", "iOS", "iOS 14.x", "Android 14", "iOS14", "1.2.3.4"])
    func badPlatform(text: String) {
        #expect(throws: SenderConfigurationError.self) { try SenderPlatform(parsing: text) }
    }
}
