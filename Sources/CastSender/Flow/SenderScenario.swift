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
        func located(_ failure: ScenarioFieldError) -> SenderScenarioError {
            SenderScenarioError(file: file, location: failure.location, message: failure.message)
        }
        let parsed: ScenarioFile
        do throws(ScenarioFieldError) {
            parsed = try Self.decode(data)
        } catch {
            throw located(error)
        }
        let loader = ReplayLoader(directory: directory)
        let configuration: SenderAppConfiguration
        let devices: [CastDevice]
        var steps: [Step] = []
        do throws(ScenarioFieldError) {
            configuration = try Self.configuration(parsed.app, directory: directory)
            let criteria = configuration.options.criteria
            devices = try await loader.devices(parsed.network.devices, criteria: criteria) ?? []
            for step in parsed.steps {
                let input: SenderFlowInput
                switch step.input {
                case .ready(let ready): input = ready
                case .deviceListReplay(let path, let location):
                    input = .deviceListChanged(
                        try await loader.devices(.replay(path: path, location: location), criteria: criteria) ?? [])
                }
                steps.append(Step(input: input, expectation: step.expectation, comment: step.comment))
            }
        } catch {
            throw located(error)
        }
        self.init(
            file: file, summary: parsed.description, configuration: configuration, initialState: parsed.stored,
            wifi: parsed.network.wifi, networkDevices: devices, steps: steps)
    }

    /// The file's structure, after the size, JSON grammar and nesting checks.
    private static func decode(_ data: Data) throws(ScenarioFieldError) -> ScenarioFile {
        if data.count > maximumFileSize {
            throw ScenarioFieldError(location: "", message: "more than \(maximumFileSize) bytes")
        }
        do throws(JSONSyntax.Failure) {
            try JSONSyntax.check(data, depthLimit: maximumNestingDepth)
        } catch {
            switch error {
            case .tooDeep:
                throw ScenarioFieldError(
                    location: "", message: "\(error); a scenario needs at most \(maximumNestingDepth) levels")
            case .invalid:
                throw ScenarioFieldError(location: "", message: "not valid JSON: \(error)")
            }
        }
        do {
            return try JSONDecoder().decode(ScenarioFile.self, from: data)
        } catch let failure as ScenarioFieldError {
            throw failure
        } catch {
            throw ScenarioFieldError(location: "", message: "not a scenario: \(error)")
        }
    }

    /// The app with its Info.plist (relative to the scenario), validated.
    private static func configuration(_ app: ScenarioFile.App, directory: URL?) throws(ScenarioFieldError)
        -> SenderAppConfiguration
    {
        var configuration = app.configuration
        if let path = app.plistPath {
            let url = directory.map { URL(fileURLWithPath: path, relativeTo: $0) } ?? URL(fileURLWithPath: path)
            do throws(InfoPlistError) {
                configuration.infoPlist = try SenderInfoPlist(fileAt: url.standardizedFileURL.path)
            } catch {
                throw ScenarioFieldError(location: "app.plist", message: error.description)
            }
        }
        do {
            try configuration.validate()
        } catch {
            throw ScenarioFieldError(location: "app", message: error.message)
        }
        return configuration
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

    /// Loads the replays a scenario refers to, each file once, within
    /// ``SenderScenario/maximumReplayEvents`` over all references.
    private final class ReplayLoader {
        private let directory: URL?
        private var remaining = SenderScenario.maximumReplayEvents
        private var loaded: [String: (events: Int, devices: [CastDevice])] = [:]

        init(directory: URL?) {
            self.directory = directory
        }

        /// The devices given inline, or listed once the replay has played; nil for none given.
        func devices(_ source: ScenarioFile.Devices?, criteria: DiscoveryCriteria) async throws(ScenarioFieldError)
            -> [CastDevice]?
        {
            switch source {
            case nil: return nil
            case .inline(let devices): return devices
            case .replay(let path, let location):
                let url = directory.map { URL(fileURLWithPath: path, relativeTo: $0) } ?? URL(fileURLWithPath: path)
                do {
                    return try await devices(url.standardizedFileURL, criteria: criteria)
                } catch {
                    throw ScenarioFieldError(location: location, message: error.description)
                }
            }
        }

        /// The devices a discovery manager lists once the replay at `url` has played.
        func devices(_ url: URL, criteria: DiscoveryCriteria) async throws(DiscoveryError) -> [CastDevice] {
            if let known = loaded[url.path] {
                try spend(known.events)
                return known.devices
            }
            let recording = try ReplayRecording(contentsOf: url)
            try spend(recording.events.count)
            let backend = ReplayBackend(recording: recording, speed: 0, ending: .finish)
            let devices = try await SenderFlow.networkDevices(
                of: DiscoveryManager(backend: backend, criteria: criteria))
            loaded[url.path] = (recording.events.count, devices)
            return devices
        }

        private func spend(_ events: Int) throws(DiscoveryError) {
            guard events <= remaining else {
                throw DiscoveryError(
                    kind: .badInput,
                    message:
                        "the scenario's replays hold more than \(SenderScenario.maximumReplayEvents) events in all "
                        + "(each reference counts)")
            }
            remaining -= events
        }
    }
}
