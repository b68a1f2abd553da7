import CastDiscovery

/// What a sender app shows and does, step by step: the local-network permission flow, the Cast
/// button and the cast state, on top of the start rules of ``DiscoverySession``.
///
/// Feed it inputs (``handle(_:)``); each returns a ``SenderFlowStep`` with every observable.
/// The rules:
///
/// - Discovery runs when the composed ``DiscoverySession`` says so (start flags, first tap,
///   foreground). The SDK acts on ``SenderAppConfiguration/effectiveOptions``.
/// - The system's local-network prompt shows whenever discovery runs in the foreground and the
///   permission is not determined; it is answered once per install (``SenderFlowState``), and a
///   denial lasts until changed in Settings (which lists the app only once it has asked).
/// - On iOS 13 with a guest-mode SDK, the Bluetooth prompt shows the first time discovery runs.
/// - The app sees the network's devices only where discovery has run in this launch, on Wi-Fi,
///   with the permission granted or not applicable; never while denied or undetermined.
/// - A Cast button tap shows the SDK's interstitial under the first-tap rule; otherwise it
///   opens the device dialog: the picker with devices, the denied dialog when discovery has run
///   and found the permission denied, else the no-devices dialog. When the tap starts
///   discovery and the prompt shows, the dialog follows the answer. An open dialog follows the
///   device list.
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
    public private(set) var session: DiscoverySession
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
    /// The first-tap bug swallowed the interstitial's dismissal; the next tap delivers it.
    private var deferredDismissal = false
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
        session = DiscoverySession(
            options: configuration.effectiveOptions, discoveryHasStartedOnce: state.discoveryHasStartedOnce)
        snapshot = SenderFlowStep(
            input: nil, phase: .notLaunched, screen: .none, dialog: nil, discoveryRunning: false,
            discoveryHasStartedOnce: state.discoveryHasStartedOnce,
            localNetworkPermission: state.permission(on: configuration.platform), wifi: wifi, visibleDevices: [],
            castButton: CastButtonVisibility(isVisible: false, reason: .noDevices), castState: .noDevicesAvailable,
            quirks: [], notes: [])
        snapshot = makeSnapshot(input: nil, quirks: [], notes: [])
    }

    // MARK: - Observables

    /// Where the app is.
    public var phase: SenderAppPhase { SenderAppPhase(session.phase) }

    /// The local-network permission on the app's platform.
    public var permission: LocalNetworkPermission { state.permission(on: configuration.platform) }

    /// The devices the app sees: none before discovery ran in this launch, off Wi-Fi, or without
    /// local-network access.
    public var visibleDevices: [CastDevice] {
        discoveryRanThisLaunch && wifi && permission.allowsDiscovery ? seenDevices : []
    }

    /// Whether the SDK's Cast button shows, and why.
    public var castButton: CastButtonVisibility {
        if configuration.picker == .custom { return CastButtonVisibility(isVisible: false, reason: .customPicker) }
        if !wifi { return CastButtonVisibility(isVisible: false, reason: .offWiFi) }
        if connection != nil { return CastButtonVisibility(isVisible: true, reason: .sessionActive) }
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
        var quirks: [SenderQuirk] = []
        var notes: [String] = []
        apply(input, &quirks, &notes)
        settle(&quirks)
        snapshot = makeSnapshot(input: input.description, quirks: quirks, notes: notes)
        return snapshot
    }

    private mutating func apply(_ input: SenderFlowInput, _ quirks: inout [SenderQuirk], _ notes: inout [String]) {
        let needsLaunch: Bool
        switch input {
        case .appLaunched, .relaunched, .settingsChanged, .wifiChanged, .deviceListChanged: needsLaunch = false
        default: needsLaunch = true
        }
        if needsLaunch, phase == .notLaunched {
            notes.append("ignored: the app has not launched")
            return
        }
        switch input {
        case .appLaunched:
            guard phase == .notLaunched else {
                notes.append("ignored: the app is already running (use relaunched)")
                return
            }
            launch(&quirks)
        case .relaunched:
            session = DiscoverySession(
                options: configuration.effectiveOptions, discoveryHasStartedOnce: state.discoveryHasStartedOnce)
            screen = .none
            seenDevices = []
            discoveryRanThisLaunch = false
            deferredDismissal = false
            deviceDialogPending = false
            connection = nil
            launch(&quirks)
        case .enteredBackground:
            guard phase == .foreground else { return notes.append("ignored: the app is not in the foreground") }
            _ = session.handle(.enteredBackground)
        case .enteredForeground:
            guard phase == .background else { return notes.append("ignored: the app is not in the background") }
            _ = session.handle(.enteredForeground)
        case .castButtonTapped:
            tap(&quirks, &notes)
        case .interstitialDismissed:
            guard phase == .foreground, screen.isInterstitial else {
                return notes.append("ignored: no interstitial is showing")
            }
            let interstitial = screen
            screen = .none
            if interstitial == .appInterstitial {
                _ = session.handle(.startDiscoveryRequested)
                deviceDialogPending = true
            } else if configuration.hasFirstTapBug {
                deferredDismissal = true
                quirks.append(.firstTapDoesNotStartDiscovery)
            } else {
                _ = session.handle(.interstitialDismissed)
                deviceDialogPending = true
            }
        case .promptAnswered(let granted):
            guard phase == .foreground, screen.isSystemPrompt else {
                return notes.append("ignored: no system prompt is showing")
            }
            if screen == .localNetworkPrompt {
                state.localNetworkPermission = granted ? .granted : .denied
            } else {
                state.bluetoothPromptAnswered = true
            }
            screen = .none
        case .settingsChanged(let granted):
            guard configuration.platform.requiresLocalNetworkPermission else {
                return notes.append("ignored: \(configuration.platform) has no local-network permission")
            }
            guard permission != .notDetermined else {
                return notes.append("ignored: Settings lists the app under Local Network only once it has asked")
            }
            state.localNetworkPermission = granted ? .granted : .denied
        case .startDiscoveryRequested:
            if deferredDismissal {
                deferredDismissal = false
                _ = session.handle(.interstitialDismissed)
            }
            _ = session.handle(.startDiscoveryRequested)
        case .stopDiscoveryRequested:
            _ = session.handle(.stopDiscoveryRequested)
        case .dialogDismissed:
            guard screen.isDeviceDialog else { return notes.append("ignored: no device dialog is showing") }
            screen = .none
        case .goToSettingsTapped:
            guard screen == .deniedDialog else { return notes.append("ignored: the denied dialog is not showing") }
            screen = .none
            _ = session.handle(.enteredBackground)
        case .wifiChanged(let on):
            wifi = on
            if !on, connection != nil {
                connection = nil
                notes.append("the Cast session ended: the phone left Wi-Fi")
            }
        case .deviceListChanged(let devices):
            networkDevices = devices
        case .deviceSelected(let name):
            guard screen == .devicePicker else { return notes.append("ignored: the device picker is not showing") }
            let wanted = DeviceListMatch(name)
            guard let device = visibleDevices.first(where: wanted.matches) else {
                return notes.append("ignored: no visible device \(SafeText.quoted(name))")
            }
            connection = Connection(uniqueID: device.uniqueID, connected: false)
            screen = .none
        case .sessionStarted:
            guard let current = connection, !current.connected else {
                return notes.append("ignored: no session is connecting")
            }
            connection?.connected = true
        case .sessionEnded:
            guard connection != nil else { return notes.append("ignored: no session is active") }
            connection = nil
        }
    }

    private mutating func launch(_ quirks: inout [SenderQuirk]) {
        _ = session.handle(.appLaunched)
        if configuration.firstTapFlagIgnored { quirks.append(.firstTapFlagUnavailable) }
        if configuration.picker == .custom, session.options.waitsForFirstTap, !session.discoveryHasStartedOnce {
            quirks.append(.customPickerNeedsExplicitStart)
        }
    }

    private mutating func tap(_ quirks: inout [SenderQuirk], _ notes: inout [String]) {
        guard phase == .foreground else { return notes.append("ignored: the app is not in the foreground") }
        guard screen == .none else { return notes.append("ignored: \(screen) is showing") }
        switch configuration.picker {
        case .sdkCastButton:
            let button = castButton
            guard button.isVisible else {
                return notes.append("ignored: the Cast button is hidden (\(button.reason.summary))")
            }
            if deferredDismissal {
                deferredDismissal = false
                _ = session.handle(.interstitialDismissed)
                quirks.append(.firstTapDoesNotStartDiscovery)
                notes.append("this second tap starts discovery")
            } else if session.handle(.castButtonTapped).showInterstitial {
                screen = .sdkInterstitial
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
    private mutating func settle(_ quirks: inout [SenderQuirk]) {
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
                quirks.append(.bluetoothPromptOnIOS13)
            }
        }
        if deviceDialogPending, screen == .none {
            deviceDialogPending = false
            screen = deviceDialog
        } else if screen.isDeviceDialog {
            screen = deviceDialog
        }
        if castButton.reason == .noDevices, configuration.picker == .sdkCastButton,
            session.options.waitsForFirstTap, !session.discoveryHasStartedOnce
        {
            quirks.append(.castButtonHiddenBeforeFirstTap)
        }
    }

    /// The dialog a tap opens now.
    private var deviceDialog: SenderScreen {
        if permission == .denied, discoveryRanThisLaunch { return .deniedDialog }
        return visibleDevices.isEmpty ? .noDevicesDialog : .devicePicker
    }

    private func makeSnapshot(input: String?, quirks: [SenderQuirk], notes: [String]) -> SenderFlowStep {
        let dialog: SenderDialog? =
            switch screen {
            case .noDevicesDialog:
                .noDevices(platformHasPermission: configuration.platform.requiresLocalNetworkPermission)
            case .deniedDialog: .denied
            default: nil
            }
        return SenderFlowStep(
            input: input, phase: phase, screen: screen, dialog: dialog, discoveryRunning: session.shouldDiscover,
            discoveryHasStartedOnce: session.discoveryHasStartedOnce, localNetworkPermission: permission, wifi: wifi,
            visibleDevices: visibleDevices.map(SenderVisibleDevice.init), castButton: castButton, castState: castState,
            quirks: quirks, notes: notes)
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
