import CastDiscovery
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a sender app experiences after one input: a snapshot of every observable of
/// ``SenderFlow``.
///
/// JSON field names (stable): `input`, `phase`, `screen`, `dialog` (`title`, `hints`,
/// `buttons`; absent unless a no-devices or denied dialog shows), `discoveryRunning`,
/// `discoveryHasStartedOnce`, `localNetworkPermission`, `wifi`, `visibleDevices` (`uniqueID`,
/// `friendlyName`, `modelName`), `castButton` (`visible`, `reason`), `castState` (name),
/// `castStateValue` (the SDK's number), `quirks` (names), `inferred` (names of the model's
/// choices that no source states; see ``SenderInference``), `blockedBrowses` (the service types
/// iOS refuses to browse because the Info.plist's NSBonjourServices lacks them), `notes`.
public struct SenderFlowStep: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The input that led here (``SenderFlowInput/description``); nil for the state before any.
    public var input: String?
    /// Where the app is.
    public var phase: SenderAppPhase
    /// What shows over the app's content.
    public var screen: SenderScreen
    /// The texts of the no-devices or denied dialog, when one shows.
    public var dialog: SenderDialog?
    /// Whether discovery runs now.
    public var discoveryRunning: Bool
    /// Whether discovery has started once, in this launch or an earlier one.
    public var discoveryHasStartedOnce: Bool
    /// The local-network permission.
    public var localNetworkPermission: LocalNetworkPermission
    /// Whether the phone is on Wi-Fi.
    public var wifi: Bool
    /// The devices the app sees, in the discovery manager's order; none while denied.
    public var visibleDevices: [SenderVisibleDevice]
    /// Whether the SDK's Cast button shows, and why.
    public var castButton: CastButtonVisibility
    /// The Cast state.
    public var castState: CastState
    /// The SDK quirks that shaped this step.
    public var quirks: [SenderQuirk]
    /// Why an input changed nothing, and other remarks for people.
    public var notes: [String]
    /// The model's choices without a source that acted in this step.
    public var inferred: [SenderInference] = []
    /// The service types the app asks to browse that iOS refuses (missing from NSBonjourServices).
    public var blockedBrowses: [String] = []

    /// Creates a snapshot.
    public init(
        input: String?, phase: SenderAppPhase, screen: SenderScreen, dialog: SenderDialog?, discoveryRunning: Bool,
        discoveryHasStartedOnce: Bool, localNetworkPermission: LocalNetworkPermission, wifi: Bool,
        visibleDevices: [SenderVisibleDevice], castButton: CastButtonVisibility, castState: CastState,
        quirks: [SenderQuirk], notes: [String]
    ) {
        self.input = input
        self.phase = phase
        self.screen = screen
        self.dialog = dialog
        self.discoveryRunning = discoveryRunning
        self.discoveryHasStartedOnce = discoveryHasStartedOnce
        self.localNetworkPermission = localNetworkPermission
        self.wifi = wifi
        self.visibleDevices = visibleDevices
        self.castButton = castButton
        self.castState = castState
        self.quirks = quirks
        self.notes = notes
    }

    private enum CodingKeys: String, CodingKey {
        case input, phase, screen, dialog, discoveryRunning, discoveryHasStartedOnce, localNetworkPermission, wifi
        case visibleDevices, castButton, castState, castStateValue, quirks, inferred, blockedBrowses, notes
    }

    /// Decodes a snapshot from the JSON ``encode(to:)`` writes (`castStateValue` is ignored).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        input = try c.decodeIfPresent(String.self, forKey: .input)
        phase = try c.decode(SenderAppPhase.self, forKey: .phase)
        screen = try c.decode(SenderScreen.self, forKey: .screen)
        dialog = try c.decodeIfPresent(SenderDialog.self, forKey: .dialog)
        discoveryRunning = try c.decode(Bool.self, forKey: .discoveryRunning)
        discoveryHasStartedOnce = try c.decode(Bool.self, forKey: .discoveryHasStartedOnce)
        localNetworkPermission = try c.decode(LocalNetworkPermission.self, forKey: .localNetworkPermission)
        wifi = try c.decode(Bool.self, forKey: .wifi)
        visibleDevices = try c.decode([SenderVisibleDevice].self, forKey: .visibleDevices)
        castButton = try c.decode(CastButtonVisibility.self, forKey: .castButton)
        castState = try c.decode(CastState.self, forKey: .castState)
        quirks = try c.decode([SenderQuirk].self, forKey: .quirks)
        notes = try c.decode([String].self, forKey: .notes)
        inferred = try c.decodeIfPresent([SenderInference].self, forKey: .inferred) ?? []
        blockedBrowses = try c.decodeIfPresent([String].self, forKey: .blockedBrowses) ?? []
    }

    /// Encodes every field, plus `castStateValue`, the SDK's number for ``castState``.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(input, forKey: .input)
        try c.encode(phase, forKey: .phase)
        try c.encode(screen, forKey: .screen)
        try c.encodeIfPresent(dialog, forKey: .dialog)
        try c.encode(discoveryRunning, forKey: .discoveryRunning)
        try c.encode(discoveryHasStartedOnce, forKey: .discoveryHasStartedOnce)
        try c.encode(localNetworkPermission, forKey: .localNetworkPermission)
        try c.encode(wifi, forKey: .wifi)
        try c.encode(visibleDevices, forKey: .visibleDevices)
        try c.encode(castButton, forKey: .castButton)
        try c.encode(castState, forKey: .castState)
        try c.encode(castState.rawValue, forKey: .castStateValue)
        try c.encode(quirks, forKey: .quirks)
        try c.encode(inferred, forKey: .inferred)
        try c.encode(blockedBrowses, forKey: .blockedBrowses)
        try c.encode(notes, forKey: .notes)
    }

    /// A block of labelled lines for people, one field a line; quirks and notes one a line.
    public var description: String {
        var lines: [String] = []
        func add(_ label: String, _ value: String) {
            lines.append(label + String(repeating: " ", count: max(1, 13 - label.count)) + value)
        }
        if let input { add("input:", input) }
        add("app:", phase.rawValue)
        add("screen:", screen.rawValue + (dialog.map { " \"\($0.title)\"" } ?? ""))
        if let dialog {
            for hint in dialog.hints { add("", "hint: \(hint)") }
            add("", "buttons: " + dialog.buttons.joined(separator: ", "))
        }
        add(
            "discovery:",
            (discoveryRunning ? "running" : "not running")
                + (discoveryHasStartedOnce ? " (has started once)" : " (never started)"))
        add("permission:", localNetworkPermission.rawValue)
        add("Wi-Fi:", wifi ? "on" : "off")
        add(
            "devices:",
            visibleDevices.isEmpty
                ? "none visible"
                : "\(visibleDevices.count) visible: "
                    + visibleDevices.map { SafeText.quoted($0.friendlyName) }.joined(separator: ", "))
        add("Cast button:", castButton.description)
        add("cast state:", castState.description)
        for quirk in quirks { add("quirk:", "\(quirk.rawValue): \(quirk.summary)") }
        for type in blockedBrowses {
            add(
                "blocked:",
                "browse for \(SafeText.quoted(type)) refused by iOS (NoAuth -72008): not in NSBonjourServices")
        }
        for item in inferred { add("inferred:", "\(item.rawValue): \(item.summary)") }
        for note in notes { add("note:", note) }
        return lines.joined(separator: "\n")
    }
}
