import CastDiscovery
/// What a scenario step expects of the ``SenderFlowStep`` after its input: any subset of the
/// snapshot's fields; a nil field is not checked.
public struct SenderScenarioExpectation: Sendable, Hashable {
    /// Field `phase`.
    public var phase: SenderAppPhase?
    /// Field `screen`.
    public var screen: SenderScreen?
    /// Field `discoveryRunning`.
    public var discoveryRunning: Bool?
    /// Field `discoveryHasStartedOnce`.
    public var discoveryHasStartedOnce: Bool?
    /// Field `localNetworkPermission`.
    public var localNetworkPermission: LocalNetworkPermission?
    /// Field `wifi`.
    public var wifi: Bool?
    /// Field `visibleDevices`: the friendly names, in order.
    public var visibleDevices: [String]?
    /// Field `castButtonVisible`.
    public var castButtonVisible: Bool?
    /// Field `castButtonReason`.
    public var castButtonReason: CastButtonVisibility.Reason?
    /// Field `castState`, by name.
    public var castState: CastState?
    /// Field `quirks`: exactly these quirks, in any order (`[]` checks that none acted).
    public var quirks: [SenderQuirk]?
    /// Field `inferred`: exactly these inferred choices, in any order (`[]` checks that none acted).
    public var inferred: [SenderInference]?
    /// Field `blockedBrowses`: exactly these refused service types, in any order.
    public var blockedBrowses: [String]?

    /// Creates an expectation checking the given fields.
    public init(
        phase: SenderAppPhase? = nil, screen: SenderScreen? = nil, discoveryRunning: Bool? = nil,
        discoveryHasStartedOnce: Bool? = nil, localNetworkPermission: LocalNetworkPermission? = nil,
        wifi: Bool? = nil, visibleDevices: [String]? = nil, castButtonVisible: Bool? = nil,
        castButtonReason: CastButtonVisibility.Reason? = nil, castState: CastState? = nil,
        quirks: [SenderQuirk]? = nil, inferred: [SenderInference]? = nil, blockedBrowses: [String]? = nil
    ) {
        self.phase = phase
        self.screen = screen
        self.discoveryRunning = discoveryRunning
        self.discoveryHasStartedOnce = discoveryHasStartedOnce
        self.localNetworkPermission = localNetworkPermission
        self.wifi = wifi
        self.visibleDevices = visibleDevices
        self.castButtonVisible = castButtonVisible
        self.castButtonReason = castButtonReason
        self.castState = castState
        self.quirks = quirks
        self.inferred = inferred
        self.blockedBrowses = blockedBrowses
    }

    /// The field names a scenario's `expect` object may use.
    public static let fieldNames = ScenarioExpectation.Key.allCases.map(\.rawValue)

    /// Whether no field is checked.
    public var isEmpty: Bool { self == SenderScenarioExpectation() }

    /// The checked fields whose value differs in `step`, in ``fieldNames`` order.
    public func differences(from step: SenderFlowStep) -> [SenderScenarioMismatch.Difference] {
        var out: [SenderScenarioMismatch.Difference] = []
        func check<T: Equatable>(_ field: String, _ expected: T?, _ actual: T, _ show: (T) -> String) {
            if let expected, expected != actual {
                out.append(.init(field: field, expected: show(expected), actual: show(actual)))
            }
        }
        func names(_ list: [String]) -> String { "[" + list.map { SafeText.quoted($0) }.joined(separator: ", ") + "]" }
        check("phase", phase, step.phase) { $0.rawValue }
        check("screen", screen, step.screen) { $0.rawValue }
        check("discoveryRunning", discoveryRunning, step.discoveryRunning) { "\($0)" }
        check("discoveryHasStartedOnce", discoveryHasStartedOnce, step.discoveryHasStartedOnce) { "\($0)" }
        check("localNetworkPermission", localNetworkPermission, step.localNetworkPermission) { $0.rawValue }
        check("wifi", wifi, step.wifi) { "\($0)" }
        check("visibleDevices", visibleDevices, step.visibleDevices.map(\.friendlyName), names)
        check("castButtonVisible", castButtonVisible, step.castButton.isVisible) { "\($0)" }
        check("castButtonReason", castButtonReason, step.castButton.reason) { $0.rawValue }
        check("castState", castState, step.castState) { $0.name }
        check("quirks", quirks.map(Self.sorted), Self.sorted(step.quirks)) {
            "[" + $0.map(\.rawValue).joined(separator: ", ") + "]"
        }
        check(
            "inferred", inferred.map { $0.sorted { $0.rawValue < $1.rawValue } },
            step.inferred.sorted { $0.rawValue < $1.rawValue }
        ) {
            "[" + $0.map(\.rawValue).joined(separator: ", ") + "]"
        }
        check("blockedBrowses", blockedBrowses.map { $0.sorted() }, step.blockedBrowses.sorted(), names)
        return out
    }

    private static func sorted(_ quirks: [SenderQuirk]) -> [SenderQuirk] {
        quirks.sorted { $0.rawValue < $1.rawValue }
    }
}
