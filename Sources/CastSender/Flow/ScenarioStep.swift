import CastDiscovery

/// One step of a scenario file as written: its input (with the input's arguments), what to
/// expect after it, and a comment. A device list from a replay is read once the file is.
struct ScenarioStep: Decodable {
    enum Key: String, CodingKey, CaseIterable {
        case input, comment, expect, granted, connected, devices, replay, device
    }

    enum Input {
        case ready(SenderFlowInput)
        /// `deviceListChanged` with a replay file still to play.
        case deviceListReplay(path: String, location: String)
    }

    var input: Input
    var expectation: SenderScenarioExpectation
    var comment: String?

    init(from decoder: any Decoder) throws {
        let location = ScenarioFieldError.location(of: decoder.codingPath)
        let name = try Self.inputName(decoder)
        // Every place inside a step is named with the step's input: `steps[2] (promptAnswered)`.
        let named = "\(location) (\(name.rawValue))"
        do throws(ScenarioFieldError) {
            let arguments = name.arguments.compactMap(Key.init(rawValue:))
            let object = try ScenarioObject<Key>(
                decoder, allowed: [.input, .comment, .expect] + arguments,
                required: name == .deviceListChanged ? [] : arguments)
            input = try Self.input(name, object)
            if case .deviceListReplay(let path, let replayLocation) = input {
                let place = ScenarioFieldError.place(replayLocation, replacing: location, with: named)
                input = .deviceListReplay(path: path, location: place)
            }
            expectation =
                try object.decode(ScenarioExpectation.self, .expect, expected: "an object")?.expectation
                ?? SenderScenarioExpectation()
            comment = try object.string(.comment)
        } catch {
            throw error.relocated(replacing: location, with: named)
        }
    }

    /// The step's `input`, checked before the rest, as the other fields depend on it.
    private static func inputName(_ decoder: any Decoder) throws(ScenarioFieldError) -> SenderFlowInput.Name {
        // Only the input is read here; the other fields are checked once it is known.
        let object = try ScenarioObject<Key>(decoder, allowed: nil, required: [.input])
        let text = try object.required(object.string(.input), .input)
        guard let name = SenderFlowInput.Name(rawValue: text) else {
            throw object.error(
                .input,
                "unknown input \(SafeText.quoted(text)); expected one of: "
                    + SenderFlowInput.names.joined(separator: ", "))
        }
        return name
    }

    private static func input(_ name: SenderFlowInput.Name, _ object: ScenarioObject<Key>) throws(ScenarioFieldError)
        -> Input
    {
        switch name {
        case .appLaunched: return .ready(.appLaunched)
        case .relaunched: return .ready(.relaunched)
        case .enteredBackground: return .ready(.enteredBackground)
        case .enteredForeground: return .ready(.enteredForeground)
        case .castButtonTapped: return .ready(.castButtonTapped)
        case .interstitialDismissed: return .ready(.interstitialDismissed)
        case .promptAnswered:
            return .ready(.promptAnswered(granted: try object.required(object.bool(.granted), .granted)))
        case .settingsChanged:
            return .ready(.settingsChanged(granted: try object.required(object.bool(.granted), .granted)))
        case .locationPermissionChanged:
            return .ready(.locationPermissionChanged(granted: try object.required(object.bool(.granted), .granted)))
        case .startDiscoveryRequested: return .ready(.startDiscoveryRequested)
        case .stopDiscoveryRequested: return .ready(.stopDiscoveryRequested)
        case .dialogDismissed: return .ready(.dialogDismissed)
        case .goToSettingsTapped: return .ready(.goToSettingsTapped)
        case .wifiChanged: return .ready(.wifiChanged(try object.required(object.bool(.connected), .connected)))
        case .deviceSelected: return .ready(.deviceSelected(try object.required(object.string(.device), .device)))
        case .sessionStarted: return .ready(.sessionStarted)
        case .sessionEnded: return .ready(.sessionEnded)
        case .deviceListChanged:
            switch try ScenarioFile.Devices(object, devices: .devices, replay: .replay) {
            case .inline(let devices)?: return .ready(.deviceListChanged(devices))
            case .replay(let path, let location)?: return .deviceListReplay(path: path, location: location)
            case nil: throw object.error("expected \"devices\" or \"replay\"")
            }
        }
    }
}

/// A step's `expect` object: any of the snapshot's fields.
struct ScenarioExpectation: Decodable {
    enum Key: String, CodingKey, CaseIterable {
        case phase, screen, discoveryRunning, discoveryHasStartedOnce, localNetworkPermission, wifi
        case visibleDevices, castButtonVisible, castButtonReason, castState, quirks, inferred, blockedBrowses
    }

    var expectation: SenderScenarioExpectation

    init(from decoder: any Decoder) throws {
        let object = try ScenarioObject<Key>(decoder)
        expectation = SenderScenarioExpectation(
            phase: try object.choice(.phase, what: "phase"),
            screen: try object.choice(.screen, what: "screen"),
            discoveryRunning: try object.bool(.discoveryRunning),
            discoveryHasStartedOnce: try object.bool(.discoveryHasStartedOnce),
            localNetworkPermission: try object.choice(.localNetworkPermission, what: "permission"),
            wifi: try object.bool(.wifi),
            visibleDevices: try object.strings(.visibleDevices),
            castButtonVisible: try object.bool(.castButtonVisible),
            castButtonReason: try object.choice(.castButtonReason, what: "Cast button reason"),
            castState: try object.choice(
                .castState, names: CastState.allCases.map(\.name), what: "cast state", CastState.init(name:)),
            quirks: try object.choices(.quirks, what: "quirk"),
            inferred: try object.choices(.inferred, what: "inferred choice"),
            blockedBrowses: try object.strings(.blockedBrowses))
    }
}
