import CastDiscovery

/// A scenario file as written (see ``SenderScenario``), decoded strictly: what can be checked
/// without reading other files. Info.plists and replays are named by path and read afterwards.
struct ScenarioFile: Decodable {
    enum Key: String, CodingKey, CaseIterable {
        case version, description, app, stored, network, steps
    }

    var description: String?
    var app: App
    var stored: SenderFlowState
    var network: Network
    var steps: [ScenarioStep]

    init(from decoder: any Decoder) throws {
        let object = try ScenarioObject<Key>(decoder, required: [.version, .app, .steps])
        guard try object.number(.version) == 1 else {
            let found = try object.decode(ScenarioValueKind.self, .version, expected: "1")
            throw object.error(.version, "expected 1, found \(found?.description ?? "nothing")")
        }
        description = try object.string(.description)
        app = try object.required(object.decode(App.self, .app, expected: "an object"), .app)
        stored = try object.decode(Stored.self, .stored, expected: "an object")?.state ?? SenderFlowState()
        network = try object.decode(Network.self, .network, expected: "an object") ?? Network()
        guard let steps = try object.array(.steps, of: ScenarioStep.self, limit: SenderScenario.maximumStepCount),
            !steps.isEmpty
        else { throw object.error(.steps, "expected at least one step") }
        self.steps = steps
    }

    /// The `app` object: the app, but for its Info.plist, which is read once the file is.
    struct App: Decodable {
        enum Key: String, CodingKey, CaseIterable {
            case platform, sdk, picker, noBluetoothVariant, disableDiscoveryAutostart
            case startDiscoveryAfterFirstTapOnCastButton, applicationID, xcode, appDialogs, plist
        }

        var configuration: SenderAppConfiguration
        /// `plist`, relative to the scenario.
        var plistPath: String?

        init(from decoder: any Decoder) throws {
            let object = try ScenarioObject<Key>(decoder, required: [.platform, .sdk])
            let platformText = try object.required(object.string(.platform), .platform)
            let platform: SenderPlatform
            do throws(SenderConfigurationError) {
                platform = try SenderPlatform(parsing: platformText)
            } catch {
                throw object.error(.platform, error.message)
            }
            let options = CastOptions(
                criteria: try Self.criteria(object),
                disableDiscoveryAutostart: try object.bool(.disableDiscoveryAutostart) ?? false,
                startDiscoveryAfterFirstTapOnCastButton: try object.bool(.startDiscoveryAfterFirstTapOnCastButton)
                    ?? true,
                platform: platform)
            configuration = SenderAppConfiguration(
                sdkVersion: try object.required(Self.version(object, .sdk), .sdk),
                picker: try object.choice(.picker, what: "picker") ?? .sdkCastButton,
                noBluetoothVariant: try object.bool(.noBluetoothVariant) ?? false, options: options,
                xcodeVersion: try Self.version(object, .xcode),
                appPresentsDialogs: try object.bool(.appDialogs) ?? false)
            plistPath = try object.string(.plist)
        }

        private static func version(_ object: ScenarioObject<Key>, _ key: Key) throws(ScenarioFieldError) -> SDKVersion?
        {
            guard let text = try object.string(key) else { return nil }
            do throws(SDKVersionError) {
                return try SDKVersion(parsing: text)
            } catch {
                throw object.error(key, error.description)
            }
        }

        private static func criteria(_ object: ScenarioObject<Key>) throws(ScenarioFieldError) -> DiscoveryCriteria {
            guard let appID = try object.string(.applicationID) else { return .defaultMediaReceiver }
            do {
                return try DiscoveryCriteria(applicationID: appID)
            } catch {
                throw object.error(.applicationID, "\(error)")
            }
        }
    }

    /// The `stored` object: what the app remembers at the start.
    struct Stored: Decodable {
        enum Key: String, CodingKey, CaseIterable {
            case discoveryHasStartedOnce, localNetworkPermission, bluetoothPromptAnswered
        }

        var state: SenderFlowState

        init(from decoder: any Decoder) throws {
            let object = try ScenarioObject<Key>(decoder)
            state = SenderFlowState(
                discoveryHasStartedOnce: try object.bool(.discoveryHasStartedOnce) ?? false,
                localNetworkPermission: try object.choice(.localNetworkPermission, what: "permission")
                    ?? .notDetermined,
                bluetoothPromptAnswered: try object.bool(.bluetoothPromptAnswered) ?? false)
        }
    }

    /// The `network` object: Wi-Fi and the devices on the network at the start.
    struct Network: Decodable {
        enum Key: String, CodingKey, CaseIterable {
            case wifi, devices, replay
        }

        var wifi = true
        var devices: Devices?

        init() {}

        init(from decoder: any Decoder) throws {
            let object = try ScenarioObject<Key>(decoder)
            wifi = try object.bool(.wifi) ?? true
            devices = try Devices(object, devices: .devices, replay: .replay)
        }
    }

    /// Devices given inline or by a replay file (relative to the scenario).
    enum Devices {
        case inline([CastDevice])
        case replay(path: String, location: String)

        /// The devices of `object`'s `devices` or `replay` field; nil when neither is there.
        init?<Key: CodingKey & CaseIterable & RawRepresentable<String>>(
            _ object: ScenarioObject<Key>, devices: Key, replay: Key
        ) throws(ScenarioFieldError) {
            if object.contains(devices), object.contains(replay) {
                throw object.error("give \"devices\" or \"replay\", not both")
            }
            if let path = try object.string(replay) {
                self = .replay(path: path, location: ScenarioFieldError.join(object.location, replay.rawValue))
            } else if let specs = try object.array(devices, of: DeviceSpec.self, limit: 1000) {
                self = .inline(specs.map(\.device))
            } else {
                return nil
            }
        }
    }

    /// One inline device: a name, and optionally an id and a model.
    struct DeviceSpec: Decodable {
        enum Key: String, CodingKey, CaseIterable {
            case name, id, model
        }

        var device: CastDevice

        init(from decoder: any Decoder) throws {
            let object = try ScenarioObject<Key>(decoder, required: [.name])
            let name = try object.required(object.string(.name), .name)
            let id = try object.string(.id)
            guard !name.isEmpty, id?.isEmpty != true else { throw object.error("empty name or id") }
            let model = try object.string(.model)
            do throws(DeviceRejection) {
                device = try SenderFlow.simulatedDevice(name: name, id: id, modelName: model)
            } catch {
                throw object.error(error.description)
            }
        }
    }
}
