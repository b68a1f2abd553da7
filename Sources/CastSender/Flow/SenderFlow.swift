import CastDiscovery

/// What a sender app shows and does, step by step: the local-network permission flow, the Cast
/// button and the cast state, on top of the start rules of ``DiscoveryStartPolicy``.
///
/// Feed it inputs (``handle(_:)``); each returns a ``SenderFlowStep`` with every observable.
/// The rules:
///
/// - Discovery runs when the composed ``DiscoveryStartPolicy`` says so (start flags, first tap,
///   foreground). The SDK acts on ``SenderAppConfiguration/effectiveOptions``.
/// - The system's local-network prompt shows whenever discovery runs in the foreground and the
///   permission is not determined; it is answered once per install (``SenderFlowState``), and a
///   denial lasts until changed in Settings (which lists the app only once it has asked).
/// - On iOS 13 with a guest-mode SDK, the Bluetooth prompt shows the first time discovery runs.
/// - The app sees the network's devices only where discovery has run in this launch, on Wi-Fi,
///   with the permission granted or not applicable; never while denied or undetermined, never
///   when its Info.plist lacks an NSBonjourServices entry its browses need (iOS refuses the
///   browse), never with SDK 4.4.8 or older built with Xcode 12 on iOS 14.
/// - A Cast button tap shows the SDK's interstitial under the first-tap rule; on iOS 14 or
///   later before discovery ever ran, the SDK's local network permission dialog (SDK 4.6.0 and
///   later); otherwise the device dialog: the picker with devices, the denied dialog when
///   discovery has run and found the permission denied, else the no-devices dialog. When the
///   tap starts discovery and the prompt shows, the dialog follows the answer. An open dialog
///   follows the device list. An app that presents its own dialogs gets them instead.
/// - Custom pickers: the tap is on the app's own button; the app shows its own interstitial
///   while the permission is not determined and discovery does not run, then starts discovery.
/// - Inputs that cannot happen now (a tap behind a modal screen or in the background, an answer
///   with no prompt) change nothing and say why in ``SenderFlowStep/notes``.
public struct SenderFlow: Sendable {
    private struct Connection: Sendable, Hashable {
        var uniqueID: String
        var connected: Bool
    }

    /// The app being modelled.
    public let configuration: SenderAppConfiguration
    /// The start-flag state machine of the current launch.
    public private(set) var session: DiscoveryStartPolicy
    /// What the app remembers across launches; save it after each step (``SenderFlowStore``).
    public private(set) var state: SenderFlowState
    /// What shows over the app's content.
    public private(set) var screen = SenderScreen.none
    /// Whether the phone is on Wi-Fi.
    public private(set) var wifi: Bool
    /// The devices on the network, whether or not the app can see them.
    public private(set) var networkDevices: [CastDevice]
    /// The snapshot after the last input (before any: the state at creation).
    public private(set) var snapshot: SenderFlowStep

    /// What the app's discovery manager holds: the network's devices when discovery last ran
    /// with access.
    private var seenDevices: [CastDevice] = []
    private var discoveryRanThisLaunch = false
    /// The first-tap bug swallowed the first tap of this launch.
    private var firstTapSwallowed = false
    /// Whether the user allowed the app location access (iOS keeps it; the model, per run).
    private var locationAllowed = false
    /// A session lost Wi-Fi and is reconnecting.
    private var reconnecting = false
    /// Whether the reconnecting session had started before Wi-Fi went (so it resumes as connected).
    private var connectedBeforeWiFiLoss = false
    /// What happened in the current input besides the state.
    private var log = StepLog()
    /// A tap asked for the device dialog; it shows once no prompt is in the way.
    private var deviceDialogPending = false
    private var connection: Connection?

    /// Creates the flow of an app not launched yet, with what it remembers from earlier
    /// launches, the phone's Wi-Fi and the devices on the network.
    public init(
        configuration: SenderAppConfiguration, state: SenderFlowState = SenderFlowState(), wifi: Bool = true,
        networkDevices: [CastDevice] = []
    ) {
        self.configuration = configuration
        self.state = state
        self.wifi = wifi
        self.networkDevices = networkDevices
        session = DiscoveryStartPolicy(
            options: configuration.effectiveOptions, discoveryHasStartedOnce: state.discoveryHasStartedOnce)
        snapshot = SenderFlowStep(
            input: nil, phase: .notLaunched, screen: .none, dialog: nil, discoveryRunning: false,
            discoveryHasStartedOnce: state.discoveryHasStartedOnce,
            localNetworkPermission: state.permission(on: configuration.platform), wifi: wifi, visibleDevices: [],
            castButton: CastButtonVisibility(isVisible: false, reason: .noDevices), castState: .noDevicesAvailable,
            quirks: [], notes: [])
        snapshot = makeSnapshot(input: nil)
    }

    // MARK: - Observables

    /// Where the app is.
    public var phase: SenderAppPhase { SenderAppPhase(session.phase) }

    /// The local-network permission on the app's platform.
    public var permission: LocalNetworkPermission { state.permission(on: configuration.platform) }

    /// The devices the app sees: none before discovery ran in this launch, off Wi-Fi, or without
    /// local-network access.
    public var visibleDevices: [CastDevice] {
        guard discoveryRanThisLaunch, wifi, permission.allowsDiscovery, !configuration.findsNothing,
            configuration.missingBonjourServices.isEmpty
        else { return [] }
        return seenDevices
    }

    /// Whether the SDK's Cast button shows, and why.
    public var castButton: CastButtonVisibility {
        if configuration.picker == .custom { return CastButtonVisibility(isVisible: false, reason: .customPicker) }
        if !wifi, connection == nil { return CastButtonVisibility(isVisible: false, reason: .offWiFi) }
        if connection != nil { return CastButtonVisibility(isVisible: true, reason: .sessionActive) }
        if configuration.castButtonNeedsLocation, !locationAllowed {
            return CastButtonVisibility(isVisible: false, reason: .needsLocationPermission)
        }
        if configuration.castButtonAlwaysVisible {
            return CastButtonVisibility(isVisible: true, reason: .alwaysShownOnWiFi)
        }
        return visibleDevices.isEmpty
            ? CastButtonVisibility(isVisible: false, reason: .noDevices)
            : CastButtonVisibility(isVisible: true, reason: .devicesAvailable)
    }

    /// The cast state: the session's while one is set up; noDevicesAvailable before the first
    /// tap under the first-tap rule; else by the visible devices.
    public var castState: CastState {
        if let connection { return connection.connected ? .connected : .connecting }
        if session.options.waitsForFirstTap, !session.discoveryHasStartedOnce { return .noDevicesAvailable }
        return visibleDevices.isEmpty ? .noDevicesAvailable : .notConnected
    }

    // MARK: - Inputs

    /// Applies an input and returns the snapshot after it (also kept in ``snapshot``).
    @discardableResult
    public mutating func handle(_ input: SenderFlowInput) -> SenderFlowStep {
        log = StepLog()
        apply(input)
        settle()
        snapshot = makeSnapshot(input: input.description)
        return snapshot
    }

    /// What happened in the current input besides the state: quirks that acted, notes for
    /// people, inferred choices that decided something.
    private struct StepLog {
        var quirks: [SenderQuirk] = []
        var notes: [String] = []
        var inferred: [SenderInference] = []
    }

    /// Records that the input changed nothing, and why.
    private mutating func ignore(_ reason: String) {
        log.notes.append("ignored: \(reason)")
    }

    private mutating func apply(_ input: SenderFlowInput) {
        switch input {
        case .appLaunched, .relaunched, .settingsChanged, .wifiChanged, .deviceListChanged, .locationPermissionChanged:
            break
        default:
            if phase == .notLaunched { return ignore("the app has not launched") }
        }
        switch input {
        case .appLaunched:
            guard phase == .notLaunched else { return ignore("the app is already running (use relaunched)") }
            launch()
        case .relaunched: relaunch()
        case .enteredBackground:
            guard phase == .foreground else { return ignore("the app is not in the foreground") }
            _ = session.handle(.enteredBackground)
        case .enteredForeground:
            guard phase == .background else { return ignore("the app is not in the background") }
            _ = session.handle(.enteredForeground)
        case .castButtonTapped: tap()
        case .interstitialDismissed: dismissInterstitial()
        case .promptAnswered(let granted): answerPrompt(granted: granted)
        case .settingsChanged(let granted): changeSettings(granted: granted)
        case .locationPermissionChanged(let granted): locationAllowed = granted
        case .startDiscoveryRequested: _ = session.handle(.startDiscoveryRequested)
        case .stopDiscoveryRequested: _ = session.handle(.stopDiscoveryRequested)
        case .dialogDismissed: dismissDialog()
        case .goToSettingsTapped:
            guard screen == .deniedDialog else { return ignore("the denied dialog is not showing") }
            screen = .none
            _ = session.handle(.enteredBackground)
        case .wifiChanged(let on): changeWiFi(on)
        case .deviceListChanged(let devices): networkDevices = devices
        case .deviceSelected(let name): select(name)
        case .sessionStarted:
            guard let current = connection, !current.connected else { return ignore("no session is connecting") }
            connection?.connected = true
        case .sessionEnded:
            guard connection != nil else { return ignore("no session is active") }
            connection = nil
            reconnecting = false
        }
    }

    /// The app starts again from nothing but what it stored.
    private mutating func relaunch() {
        session = DiscoveryStartPolicy(
            options: configuration.effectiveOptions, discoveryHasStartedOnce: state.discoveryHasStartedOnce)
        screen = .none
        seenDevices = []
        discoveryRanThisLaunch = false
        firstTapSwallowed = false
        deviceDialogPending = false
        connection = nil
        reconnecting = false
        launch()
    }

    private mutating func dismissInterstitial() {
        guard phase == .foreground, screen.isInterstitial else { return ignore("no interstitial is showing") }
        let interstitial = screen
        screen = .none
        if interstitial == .appInterstitial {
            _ = session.handle(.startDiscoveryRequested)
        } else {
            _ = session.handle(.interstitialDismissed)
        }
        deviceDialogPending = true
    }

    private mutating func answerPrompt(granted: Bool) {
        guard phase == .foreground else {
            return ignore("the app is in the background; a system prompt shows only over the app in the foreground")
        }
        guard screen.isSystemPrompt else { return ignore("no system prompt is showing") }
        if screen == .localNetworkPrompt {
            state.localNetworkPermission = granted ? .granted : .denied
        } else {
            state.bluetoothPromptAnswered = true
        }
        screen = .none
    }

    private mutating func changeSettings(granted: Bool) {
        guard configuration.platform.requiresLocalNetworkPermission else {
            return ignore("\(configuration.platform) has no local-network permission")
        }
        guard phase != .foreground else {
            return ignore(
                "the app is in the foreground; the user opens Settings, which puts the app in the background (send enteredBackground first)"
            )
        }
        guard permission != .notDetermined else {
            return ignore("Settings lists the app under Local Network only once it has asked")
        }
        state.localNetworkPermission = granted ? .granted : .denied
    }

    private mutating func dismissDialog() {
        guard screen.isDeviceDialog || screen.isPermissionDialog else { return ignore("no device dialog is showing") }
        if screen.isPermissionDialog, !session.discoveryWanted {
            log.inferred.append(.permissionDialogLeavesDiscoveryToApp)
            log.notes.append("discovery starts when the app calls startDiscovery")
        }
        screen = .none
    }

    private mutating func changeWiFi(_ on: Bool) {
        wifi = on
        if !on, connection != nil {
            if !reconnecting { connectedBeforeWiFiLoss = connection?.connected ?? false }
            connection?.connected = false
            reconnecting = true
            log.notes.append("the phone left Wi-Fi: the SDK tries to reconnect the session")
        } else if on, reconnecting, connection != nil {
            connection?.connected = connectedBeforeWiFiLoss
            reconnecting = false
            log.inferred.append(.sessionReconnectsAfterWiFi)
        }
    }

    private mutating func select(_ name: String) {
        guard screen == .devicePicker else { return ignore("the device picker is not showing") }
        let wanted = DeviceListMatch(name)
        guard let device = visibleDevices.first(where: wanted.matches) else {
            return ignore("no visible device \(SafeText.quoted(name))")
        }
        connection = Connection(uniqueID: device.uniqueID, connected: false)
        screen = .none
    }

    private mutating func launch() {
        _ = session.handle(.appLaunched)
        if configuration.firstTapFlagIgnored { log.quirks.append(.firstTapFlagUnavailable) }
        if configuration.customPickerStartsDiscovery, !session.discoveryWanted {
            log.quirks.append(.customPickerNeedsExplicitStart)
        }
    }

    private mutating func tap() {
        guard phase == .foreground else { return ignore("the app is not in the foreground") }
        guard screen == .none else { return ignore("\(screen) is showing") }
        switch configuration.picker {
        case .sdkCastButton:
            let button = castButton
            guard button.isVisible else {
                return ignore("the Cast button is hidden (\(button.reason.summary))")
            }
            if configuration.hasFirstTapBug, !firstTapSwallowed, !session.discoveryHasStartedOnce {
                firstTapSwallowed = true
                log.quirks.append(.firstTapDoesNotStartDiscovery)
                return log.notes.append("the first tap did nothing (SDK \(configuration.sdkVersion) bug)")
            }
            if firstTapSwallowed, !session.discoveryHasStartedOnce { log.inferred.append(.firstTapBugNextTapWorks) }
            if session.handle(.castButtonTapped).showInterstitial {
                screen = .sdkInterstitial
                return
            }
            if configuration.platform.requiresLocalNetworkPermission, permission == .notDetermined,
                !session.discoveryHasStartedOnce, !discoveryRanThisLaunch, !session.discoveryWanted,
                configuration.castButtonAlwaysVisible
            {
                screen = configuration.appPresentsDialogs ? .appLocalNetworkDialog : .localNetworkPermissionDialog
                return
            }
        case .custom:
            if !session.discoveryWanted {
                if permission == .notDetermined {
                    screen = .appInterstitial
                    return
                }
                _ = session.handle(.startDiscoveryRequested)
            }
        }
        deviceDialogPending = true
    }

    /// Brings everything derived up to date after an input.
    private mutating func settle() {
        if session.shouldDiscover {
            discoveryRanThisLaunch = true
            if wifi, permission.allowsDiscovery { seenDevices = networkDevices }
        }
        state.discoveryHasStartedOnce = session.discoveryHasStartedOnce
        if session.shouldDiscover, !screen.isSystemPrompt {
            if permission == .notDetermined {
                screen = .localNetworkPrompt
            } else if configuration.showsBluetoothPrompt, !state.bluetoothPromptAnswered {
                screen = .bluetoothPrompt
                log.quirks.append(.bluetoothPromptOnIOS13)
            }
        }
        if deviceDialogPending, screen == .none {
            deviceDialogPending = false
            screen = deviceDialog
        } else if screen.isDeviceDialog {
            screen = deviceDialog
        }
        if castButton.reason == .needsLocationPermission { log.inferred.append(.castButtonHiddenWithoutLocation) }
        if screen == .deniedDialog { log.inferred.append(.deniedDialogWithSettingsButton) }
        if screen == .localNetworkPrompt { log.inferred.append(.localNetworkPromptWording) }
        if reconnecting { log.inferred.append(.sessionReconnectsAfterWiFi) }
    }

    /// The dialog a tap opens now.
    private var deviceDialog: SenderScreen {
        if !visibleDevices.isEmpty { return .devicePicker }
        if configuration.appPresentsDialogs { return .appCastDialog }
        if permission == .denied, discoveryRanThisLaunch { return .deniedDialog }
        return .noDevicesDialog
    }

    private func makeSnapshot(input: String?) -> SenderFlowStep {
        let dialog: SenderDialog? =
            switch screen {
            case .noDevicesDialog:
                .noDevices(platformHasPermission: configuration.platform.requiresLocalNetworkPermission)
            case .deniedDialog: .denied
            case .localNetworkPermissionDialog: .localNetworkPermission
            case .localNetworkPrompt:
                .localNetworkPrompt(
                    appName: configuration.infoPlist?.appName,
                    usageDescription: configuration.infoPlist?.localNetworkUsageDescription,
                    plistKnown: configuration.infoPlist != nil)
            default: nil
            }
        var notes = log.notes
        let blocked = discoveryRanThisLaunch ? configuration.missingBonjourServices : []
        for entry in blocked {
            notes.append(
                "iOS refuses the browse for \(entry) (NoAuth, -72008): add \(entry) to NSBonjourServices in the Info.plist"
            )
        }
        if discoveryRanThisLaunch, configuration.findsNothing {
            notes.append(
                "Cast SDK \(configuration.sdkVersion) built with Xcode \(configuration.xcodeVersion.map { "\($0)" } ?? "12") finds no devices on iOS 14 or later: update the SDK to 4.5.0 or later"
            )
        }
        var unique: [SenderInference] = []
        for item in log.inferred where !unique.contains(item) { unique.append(item) }
        var step = SenderFlowStep(
            input: input, phase: phase, screen: screen, dialog: dialog, discoveryRunning: session.shouldDiscover,
            discoveryHasStartedOnce: session.discoveryHasStartedOnce, localNetworkPermission: permission, wifi: wifi,
            visibleDevices: visibleDevices.map(SenderVisibleDevice.init), castButton: castButton, castState: castState,
            quirks: log.quirks, notes: notes)
        step.inferred = unique
        step.blockedBrowses = blocked
        return step
    }
}

/// Matches a device by unique id, id or friendly name, as ``SenderFlowInput/deviceSelected(_:)`` names it.
struct DeviceListMatch: Sendable {
    let name: String

    init(_ name: String) { self.name = name }

    func matches(_ device: CastDevice) -> Bool {
        device.uniqueID == name || device.id.rawValue == name || device.id == CastDeviceID(name)
            || device.friendlyName == name
    }
}
