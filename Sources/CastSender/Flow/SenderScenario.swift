import CastDiscovery
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A scripted run of a sender app: the app, what it remembers, the network, and steps, each an
/// input and the snapshot fields expected after it. Loaded from a JSON file
/// (`Fixtures/scenarios/*.json`), validated strictly, then run by ``run(onStep:)``.
///
/// ```json
/// {"version": 1, "description": "optional",
///  "app": {"platform": "iOS 14.5", "sdk": "4.8.3", "picker": "sdkCastButton",
///          "noBluetoothVariant": false, "disableDiscoveryAutostart": false,
///          "startDiscoveryAfterFirstTapOnCastButton": true, "applicationID": "CC1AD845",
///          "xcode": "15.4", "appDialogs": false, "plist": "../plists/Info.plist"},
///  "stored": {"discoveryHasStartedOnce": false, "localNetworkPermission": "notDetermined",
///             "bluetoothPromptAnswered": false},
///  "network": {"wifi": true, "devices": [{"name": "Living Room TV", "id": "...", "model": "Chromecast"}]},
///  "steps": [
///    {"input": "appLaunched", "expect": {"screen": "none", "castState": "noDevicesAvailable"}},
///    {"input": "promptAnswered", "granted": true, "comment": "optional"},
///    {"input": "deviceListChanged", "replay": "../replay/living-room.json"}]}
/// ```
///
/// Only `version` (1), `app.platform`, `app.sdk` and `steps` are required. `network.devices` or
/// `network.replay` (a replay file, relative to the scenario, played through a discovery
/// manager) give the devices on the network; `app.plist` is an Info.plist, relative to the
/// scenario. Step arguments: `granted` (promptAnswered, settingsChanged,
/// locationPermissionChanged), `connected` (wifiChanged), `devices` or `replay` (deviceListChanged),
/// `device` (deviceSelected: unique id, id or friendly name). `expect` takes the fields of
/// ``SenderScenarioExpectation/fieldNames``. Unknown fields, input names or values, and wrong
/// types are errors naming the file and the field.
public struct SenderScenario: Sendable {
    /// One step: an input and what to expect after it.
    public struct Step: Sendable, Hashable {
        /// The input.
        public var input: SenderFlowInput
        /// The fields to check after it.
        public var expectation: SenderScenarioExpectation
        /// The step's comment, if any.
        public var comment: String?

        /// Creates a step.
        public init(input: SenderFlowInput, expectation: SenderScenarioExpectation = .init(), comment: String? = nil) {
            self.input = input
            self.expectation = expectation
            self.comment = comment
        }
    }

    /// The largest scenario file read, in bytes.
    public static let maximumFileSize = 1 << 20
    /// The most steps a scenario may have.
    public static let maximumStepCount = 10_000
    /// The deepest a scenario's JSON may nest (a scenario needs 5 levels).
    public static let maximumNestingDepth = 16
    /// The most replay events one scenario may load, over all its replay references together
    /// (each reference counts, even to a file already loaded).
    public static let maximumReplayEvents = 200_000

    /// The file's name or path, for messages.
    public var file: String
    /// The file's description.
    public var summary: String?
    /// The app.
    public var configuration: SenderAppConfiguration
    /// What the app remembers at the start.
    public var initialState: SenderFlowState
    /// Whether the phone starts on Wi-Fi.
    public var wifi: Bool
    /// The devices on the network at the start.
    public var networkDevices: [CastDevice]
    /// The steps, in order.
    public var steps: [Step]

    /// Creates a scenario.
    public init(
        file: String, summary: String? = nil, configuration: SenderAppConfiguration,
        initialState: SenderFlowState = .init(), wifi: Bool = true, networkDevices: [CastDevice] = [], steps: [Step]
    ) {
        self.file = file
        self.summary = summary
        self.configuration = configuration
        self.initialState = initialState
        self.wifi = wifi
        self.networkDevices = networkDevices
        self.steps = steps
    }

    /// Loads and validates a scenario file.
    ///
    /// - Throws: ``SenderScenarioError`` naming the file and, where it applies, the field.
    public static func load(contentsOf url: URL) async throws(SenderScenarioError) -> SenderScenario {
        let file = url.path
        let data: Data
        do throws(BoundedFile.Failure) {
            data = try BoundedFile.read(path: file, limit: maximumFileSize)
        } catch {
            let message: String
            switch error {
            case .missing: message = "cannot read: no such file"
            case .directory: message = "cannot read: is a directory"
            case .notRegular: message = "cannot read: not a regular file"
            case .tooLarge: message = "more than \(maximumFileSize) bytes"
            case .unreadable(let reason): message = "cannot read: \(reason)"
            }
            throw SenderScenarioError(file: file, location: "", message: message)
        }
        return try await SenderScenario(parsing: data, file: file, directory: url.deletingLastPathComponent())
    }

    /// Parses and validates a scenario from JSON; replay paths are relative to `directory`.
    ///
    /// - Throws: ``SenderScenarioError`` naming `file` and, where it applies, the field.
    public init(parsing data: Data, file: String, directory: URL? = nil) async throws(SenderScenarioError) {
        let reader = ScenarioReader(file: file)
        if data.count > Self.maximumFileSize {
            throw reader.error("", "more than \(Self.maximumFileSize) bytes")
        }
        do throws(JSONSyntax.Failure) {
            try JSONSyntax.check(data, depthLimit: Self.maximumNestingDepth)
        } catch {
            switch error {
            case .tooDeep: throw reader.error("", "\(error); a scenario needs at most \(Self.maximumNestingDepth) levels")
            case .invalid: throw reader.error("", "not valid JSON: \(error)")
            }
        }
        let json: ScenarioJSON
        do {
            json = try JSONDecoder().decode(ScenarioJSON.self, from: data)
        } catch {
            throw reader.error("", "not valid JSON")
        }
        let top = try reader.object(
            json, at: "", allowed: ["version", "description", "app", "stored", "network", "steps"],
            required: ["version", "app", "steps"])
        guard case .number(1) = top["version"] else {
            throw reader.error("version", "expected 1, found \(top["version"]?.kindName ?? "nothing")")
        }
        let configuration = try Self.configuration(top["app"]!, reader, directory: directory)
        let state = try Self.state(top["stored"], reader)
        let parser = Parser(
            reader: reader, directory: directory, criteria: configuration.options.criteria, replays: ReplayLoader())
        var wifi = true
        var devices: [CastDevice] = []
        if let network = top["network"] {
            let object = try reader.object(network, at: "network", allowed: ["wifi", "devices", "replay"])
            wifi = try reader.bool(object, "wifi", at: "network") ?? true
            devices = try await parser.devices(object, at: "network") ?? []
        }
        guard let stepValues = try reader.array(top, "steps", at: "", limit: Self.maximumStepCount), !stepValues.isEmpty
        else { throw reader.error("steps", "expected at least one step") }
        var steps: [Step] = []
        for (index, value) in stepValues.enumerated() {
            steps.append(try await parser.step(value, index: index))
        }
        self.init(
            file: file, summary: try reader.string(top, "description", at: ""), configuration: configuration,
            initialState: state, wifi: wifi, networkDevices: devices, steps: steps)
    }

    // MARK: - Running

    /// Runs the steps from a fresh ``SenderFlow``, stopping at the first step whose snapshot
    /// differs from its expectation; `onStep` sees each step and its snapshot as it runs.
    public func run(onStep: (Int, Step, SenderFlowStep) -> Void = { _, _, _ in }) -> SenderScenarioRun {
        var flow = SenderFlow(
            configuration: configuration, state: initialState, wifi: wifi, networkDevices: networkDevices)
        var snapshots: [SenderFlowStep] = []
        for (index, step) in steps.enumerated() {
            let snapshot = flow.handle(step.input)
            snapshots.append(snapshot)
            onStep(index, step, snapshot)
            let differences = step.expectation.differences(from: snapshot)
            if !differences.isEmpty {
                let mismatch = SenderScenarioMismatch(
                    file: file, stepIndex: index, input: step.input, differences: differences, actual: snapshot)
                return SenderScenarioRun(steps: snapshots, mismatch: mismatch, finalState: flow.state)
            }
        }
        return SenderScenarioRun(steps: snapshots, mismatch: nil, finalState: flow.state)
    }

    // MARK: - Parsing

    private static func configuration(
        _ value: ScenarioJSON, _ reader: ScenarioReader, directory: URL?
    ) throws(SenderScenarioError) -> SenderAppConfiguration {
        let app = try reader.object(
            value, at: "app",
            allowed: [
                "platform", "sdk", "picker", "noBluetoothVariant", "disableDiscoveryAutostart",
                "startDiscoveryAfterFirstTapOnCastButton", "applicationID", "xcode", "appDialogs", "plist",
            ], required: ["platform", "sdk"])
        let platformText = try reader.string(app, "platform", at: "app")!
        let sdkText = try reader.string(app, "sdk", at: "app")!
        let platform: SenderPlatform
        do throws(SenderConfigurationError) {
            platform = try SenderPlatform(parsing: platformText)
        } catch {
            throw reader.error("app.platform", error.message)
        }
        let sdk: SDKVersion
        do throws(SDKVersionError) {
            sdk = try SDKVersion(parsing: sdkText)
        } catch {
            throw reader.error("app.sdk", error.description)
        }
        var xcode: SDKVersion?
        if let text = try reader.string(app, "xcode", at: "app") {
            do throws(SDKVersionError) {
                xcode = try SDKVersion(parsing: text)
            } catch {
                throw reader.error("app.xcode", error.description)
            }
        }
        var plist: SenderInfoPlist?
        if let path = try reader.string(app, "plist", at: "app") {
            let url = directory.map { URL(fileURLWithPath: path, relativeTo: $0) } ?? URL(fileURLWithPath: path)
            do throws(InfoPlistError) {
                plist = try SenderInfoPlist(fileAt: url.standardizedFileURL.path)
            } catch {
                throw reader.error("app.plist", error.description)
            }
        }
        var criteria = DiscoveryCriteria.defaultMediaReceiver
        if let appID = try reader.string(app, "applicationID", at: "app") {
            do {
                criteria = try DiscoveryCriteria(applicationID: appID)
            } catch {
                throw reader.error("app.applicationID", "\(error)")
            }
        }
        let options = CastOptions(
            criteria: criteria,
            disableDiscoveryAutostart: try reader.bool(app, "disableDiscoveryAutostart", at: "app") ?? false,
            startDiscoveryAfterFirstTapOnCastButton:
                try reader.bool(app, "startDiscoveryAfterFirstTapOnCastButton", at: "app") ?? true,
            platform: platform)
        let configuration = SenderAppConfiguration(
            sdkVersion: sdk, picker: try reader.choice(app, "picker", at: "app", what: "picker") ?? .sdkCastButton,
            noBluetoothVariant: try reader.bool(app, "noBluetoothVariant", at: "app") ?? false, options: options,
            xcodeVersion: xcode, appPresentsDialogs: try reader.bool(app, "appDialogs", at: "app") ?? false,
            infoPlist: plist)
        do {
            try configuration.validate()
        } catch {
            throw reader.error("app", error.message)
        }
        return configuration
    }

    private static func state(_ value: ScenarioJSON?, _ reader: ScenarioReader) throws(SenderScenarioError)
        -> SenderFlowState
    {
        guard let value else { return SenderFlowState() }
        let stored = try reader.object(
            value, at: "stored", allowed: ["discoveryHasStartedOnce", "localNetworkPermission", "bluetoothPromptAnswered"])
        return SenderFlowState(
            discoveryHasStartedOnce: try reader.bool(stored, "discoveryHasStartedOnce", at: "stored") ?? false,
            localNetworkPermission: try reader.choice(
                stored, "localNetworkPermission", at: "stored", what: "permission") ?? .notDetermined,
            bluetoothPromptAnswered: try reader.bool(stored, "bluetoothPromptAnswered", at: "stored") ?? false)
    }

    /// Loads the replays a scenario refers to, each file once, within
    /// ``SenderScenario/maximumReplayEvents`` over all references.
    private final class ReplayLoader {
        private var remaining = SenderScenario.maximumReplayEvents
        private var loaded: [String: (events: Int, devices: [CastDevice])] = [:]

        /// The devices a discovery manager lists once the replay at `url` has played.
        func devices(_ url: URL, criteria: DiscoveryCriteria) async throws(DiscoveryError) -> [CastDevice] {
            if let known = loaded[url.path] {
                try spend(known.events)
                return known.devices
            }
            let recording = try ReplayRecording(contentsOf: url)
            try spend(recording.events.count)
            let backend = ReplayBackend(recording: recording, speed: 0, ending: .finish)
            let devices = try await SenderFlow.networkDevices(of: DiscoveryManager(backend: backend, criteria: criteria))
            loaded[url.path] = (recording.events.count, devices)
            return devices
        }

        private func spend(_ events: Int) throws(DiscoveryError) {
            guard events <= remaining else {
                throw DiscoveryError(
                    kind: .badInput,
                    message: "the scenario's replays hold more than \(SenderScenario.maximumReplayEvents) events in all "
                        + "(each reference counts)")
            }
            remaining -= events
        }
    }

    /// Parses steps and device lists.
    private struct Parser {
        let reader: ScenarioReader
        let directory: URL?
        let criteria: DiscoveryCriteria
        let replays: ReplayLoader

        func step(_ value: ScenarioJSON, index: Int) async throws(SenderScenarioError) -> Step {
            var location = "steps[\(index)]"
            guard case .object(let raw) = value else {
                throw reader.error(location, "expected an object, found \(value.kindName)")
            }
            guard let nameValue = raw["input"] else { throw reader.error("\(location).input", "missing required field") }
            guard case .string(let name) = nameValue else {
                throw reader.error("\(location).input", "expected a string, found \(nameValue.kindName)")
            }
            guard let kind = SenderFlowInput.Name(rawValue: name) else {
                throw reader.error(
                    "\(location).input",
                    "unknown input \(SafeText.quoted(name)); expected one of: "
                        + SenderFlowInput.names.joined(separator: ", "))
            }
            location += " (\(name))"
            let arguments = kind.arguments
            let object = try reader.object(
                value, at: location, allowed: ["input", "comment", "expect"] + arguments,
                required: kind == .deviceListChanged ? [] : arguments)
            let input: SenderFlowInput
            switch kind {
            case .appLaunched: input = .appLaunched
            case .relaunched: input = .relaunched
            case .enteredBackground: input = .enteredBackground
            case .enteredForeground: input = .enteredForeground
            case .castButtonTapped: input = .castButtonTapped
            case .interstitialDismissed: input = .interstitialDismissed
            case .promptAnswered: input = .promptAnswered(granted: try reader.bool(object, "granted", at: location)!)
            case .settingsChanged: input = .settingsChanged(granted: try reader.bool(object, "granted", at: location)!)
            case .locationPermissionChanged:
                input = .locationPermissionChanged(granted: try reader.bool(object, "granted", at: location)!)
            case .startDiscoveryRequested: input = .startDiscoveryRequested
            case .stopDiscoveryRequested: input = .stopDiscoveryRequested
            case .dialogDismissed: input = .dialogDismissed
            case .goToSettingsTapped: input = .goToSettingsTapped
            case .wifiChanged: input = .wifiChanged(try reader.bool(object, "connected", at: location)!)
            case .deviceListChanged:
                guard let devices = try await devices(object, at: location) else {
                    throw reader.error(location, "expected \"devices\" or \"replay\"")
                }
                input = .deviceListChanged(devices)
            case .deviceSelected: input = .deviceSelected(try reader.string(object, "device", at: location)!)
            case .sessionStarted: input = .sessionStarted
            case .sessionEnded: input = .sessionEnded
            }
            var expectation = SenderScenarioExpectation()
            if let expect = object["expect"] {
                expectation = try self.expectation(expect, at: "\(location).expect")
            }
            return Step(
                input: input, expectation: expectation, comment: try reader.string(object, "comment", at: location))
        }

        func expectation(
            _ value: ScenarioJSON, at location: String
        ) throws(SenderScenarioError) -> SenderScenarioExpectation {
            let object = try reader.object(value, at: location, allowed: SenderScenarioExpectation.fieldNames)
            return SenderScenarioExpectation(
                phase: try reader.choice(object, "phase", at: location, what: "phase"),
                screen: try reader.choice(object, "screen", at: location, what: "screen"),
                discoveryRunning: try reader.bool(object, "discoveryRunning", at: location),
                discoveryHasStartedOnce: try reader.bool(object, "discoveryHasStartedOnce", at: location),
                localNetworkPermission: try reader.choice(object, "localNetworkPermission", at: location, what: "permission"),
                wifi: try reader.bool(object, "wifi", at: location),
                visibleDevices: try reader.strings(object, "visibleDevices", at: location),
                castButtonVisible: try reader.bool(object, "castButtonVisible", at: location),
                castButtonReason: try reader.choice(object, "castButtonReason", at: location, what: "Cast button reason"),
                castState: try reader.choice(
                    object, "castState", at: location, names: CastState.allCases.map(\.name), what: "cast state",
                    CastState.init(name:)),
                quirks: try reader.choices(object, "quirks", at: location, what: "quirk"),
                inferred: try reader.choices(object, "inferred", at: location, what: "inferred choice"),
                blockedBrowses: try reader.strings(object, "blockedBrowses", at: location))
        }

        /// The devices of `devices` (inline) or `replay` (a file); nil when neither is there.
        func devices(_ object: ScenarioReader.Object, at location: String) async throws(SenderScenarioError)
            -> [CastDevice]?
        {
            if object["devices"] != nil, object["replay"] != nil {
                throw reader.error(location, "give \"devices\" or \"replay\", not both")
            }
            if let path = try reader.string(object, "replay", at: location) {
                let url = directory.map { URL(fileURLWithPath: path, relativeTo: $0) } ?? URL(fileURLWithPath: path)
                do {
                    return try await replays.devices(url.standardizedFileURL, criteria: criteria)
                } catch {
                    throw reader.error("\(location).replay", error.description)
                }
            }
            guard let values = try reader.array(object, "devices", at: location, limit: 1000) else { return nil }
            var devices: [CastDevice] = []
            for (index, value) in values.enumerated() {
                let here = "\(location).devices[\(index)]"
                let spec = try reader.object(value, at: here, allowed: ["name", "id", "model"], required: ["name"])
                let name = try reader.string(spec, "name", at: here)!
                let id = try reader.string(spec, "id", at: here)
                guard !name.isEmpty, id?.isEmpty != true else { throw reader.error(here, "empty name or id") }
                let model = try reader.string(spec, "model", at: here)
                do throws(DeviceRejection) {
                    devices.append(try SenderFlow.simulatedDevice(name: name, id: id, modelName: model))
                } catch {
                    throw reader.error(here, error.description)
                }
            }
            return devices
        }
    }
}
