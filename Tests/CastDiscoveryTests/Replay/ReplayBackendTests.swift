import CastDiscovery
import Foundation
import Testing

@Suite("ReplayBackend", .timeLimit(.minutes(10)))
struct ReplayBackendTests {
    typealias S = TestService

    static let replayDirectory = DeviceFixture.fixturesDirectory.appendingPathComponent("replay")
    static let livingRoom = replayDirectory.appendingPathComponent("living-room.json")
    static let allBrowses = [S.base, S.dmr, S.youTube]

    static func collect(_ backend: ReplayBackend, browsing: [String] = allBrowses) async throws -> [BackendEvent] {
        var events: [BackendEvent] = []
        for await event in try backend.events(browsing: browsing) { events.append(event) }
        return events
    }

    static func badInput(_ body: () throws(DiscoveryError) -> Void) -> DiscoveryError? {
        do throws(DiscoveryError) {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test("the fixture loads, and its JSON round-trips")
    func loads() throws {
        let recording = try ReplayRecording(contentsOf: Self.livingRoom)
        #expect(recording.events.count == 19)
        #expect(recording.events.first?.event == .stateChanged(.connecting))
        #expect(recording.events.last?.time == 7)
        guard case .found(let chromecast) = recording.events[2].event else {
            Issue.record("expected a found, got \(recording.events[2].event)"); return
        }
        #expect(chromecast.service.instanceName == "Chromecast-406c2bcdd5995755059b5bb045326056")
        #expect(chromecast.service.addresses.map(\.interfaceIndex) == [2, 2])
        #expect(chromecast.service.txt["fn"] == .bytes(Array("Living Room TV".utf8)))
        guard case .resolveFailed(let key, let error) = recording.events[16].event else {
            Issue.record("expected a resolve failure"); return
        }
        #expect(key.name.hasPrefix("Google-Nest-Mini"))
        #expect(error == DiscoveryError(kind: .daemonError, message: "Timeout reached", code: -15))
        let again = try ReplayRecording(json: recording.json())
        #expect(again == recording)
    }

    @Test("non-UTF-8 TXT round-trips as hex")
    func hexTXT() throws {
        let txt = TXTRecord(strings: [Array("id=1".utf8), [0x66, 0x6E, 0x3D, 0xFF]])
        let service = DiscoveredService(
            service: ResolvedService(instanceName: "x", hostName: "x.local", port: 1, addresses: [], txt: txt),
            browseTypes: [S.base])
        let recording = try ReplayRecording(events: [ReplayEvent(time: 0, event: .found(service))])
        let json = String(decoding: recording.json(), as: UTF8.self)
        #expect(json.contains("\"txtHex\""))
        #expect(json.contains("666e3dff"))
        #expect(try ReplayRecording(json: recording.json()) == recording)
    }

    @Test("plays every event in order at speed 0 and at a high speed")
    func plays() async throws {
        let recording = try ReplayRecording(contentsOf: Self.livingRoom)
        for speed in [0.0, 1000] {
            let events = try await Self.collect(ReplayBackend(recording: recording, speed: speed, ending: .finish))
            #expect(events == recording.events.map(\.event))
        }
    }

    @Test("narrows browse types to the requested ones, as a network would")
    func filters() async throws {
        let recording = try ReplayRecording(contentsOf: Self.livingRoom)
        let events = try await Self.collect(
            ReplayBackend(recording: recording, speed: 0, ending: .finish), browsing: [S.base, S.dmr])
        #expect(!events.contains(.allForNow(browseType: S.youTube)))
        #expect(events.contains(.allForNow(browseType: S.dmr)))
        for event in events {
            if case .found(let service) = event { #expect(!service.browseTypes.contains(S.youTube)) }
            if case .updated(let service) = event { #expect(!service.browseTypes.contains(S.youTube)) }
        }
        // A service recorded only in a browse that was not requested is never reported.
        let only = S.make("y", id: S.uuid(1), name: "Y", browse: [S.youTube])
        let hidden = try ReplayRecording(events: [
            ReplayEvent(time: 0, event: .found(only)), ReplayEvent(time: 0, event: .updated(only)),
            ReplayEvent(time: 0, event: .removed(only)),
        ])
        #expect(
            try await Self.collect(ReplayBackend(recording: hidden, speed: 0, ending: .finish), browsing: [S.base])
                .isEmpty)
        // Leaving the requested browses reads as a removal.
        let leaving = try ReplayRecording(events: [
            ReplayEvent(time: 0, event: .found(S.make("a", id: S.uuid(1), name: "A", browse: [S.base, S.dmr]))),
            ReplayEvent(time: 0, event: .updated(S.make("a", id: S.uuid(1), name: "A", browse: [S.youTube]))),
        ])
        let played = try await Self.collect(
            ReplayBackend(recording: leaving, speed: 0, ending: .finish), browsing: [S.base, S.dmr])
        #expect(played.count == 2)
        if case .removed(let service)? = played.last {
            #expect(service.browseTypes == [S.base, S.dmr])
        } else {
            Issue.record("expected a removal, got \(played)")
        }
    }

    @Test("a recorded failure ends the stream even when holding open; holding open ends on cancel")
    func endings() async throws {
        let failure = DiscoveryError(kind: .daemonError, message: "bye")
        let failing = try ReplayRecording(events: [
            ReplayEvent(time: 0, event: .stateChanged(.running)),
            ReplayEvent(time: 0, event: .stateChanged(.failed(failure))),
            ReplayEvent(time: 0, event: .allForNow(browseType: S.base)),
        ])
        let events = try await Self.collect(ReplayBackend(recording: failing, speed: 0))
        #expect(events == [.stateChanged(.running), .stateChanged(.failed(failure))])

        let open = try ReplayRecording(events: [ReplayEvent(time: 0, event: .stateChanged(.running))])
        let stream = try ReplayBackend(recording: open, speed: 0, ending: .holdOpen).events(browsing: [S.base])
        let (received, signal) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            var count = 0
            for await _ in stream {
                count += 1
                signal.yield()
            }
            return count
        }
        var iterator = received.makeAsyncIterator()
        _ = await iterator.next()
        task.cancel()
        #expect(await task.value == 1)
    }

    @Test("an empty browse list is refused")
    func noBrowse() throws {
        let backend = ReplayBackend(recording: try ReplayRecording(events: []), speed: 0)
        let error = Self.badInput { () throws(DiscoveryError) in _ = try backend.events(browsing: []) }
        #expect(error?.kind == .invalidBrowseType)
    }

    @Test(
        "bad files give badInput errors that say where and what",
        arguments: [
            ("not json", "not JSON"),
            ("{\"version\": 1}", "events: missing"),
            ("{\"version\": 2, \"events\": []}", "version: 2 is not supported"),
            (
                "{\"version\": 1, \"events\": [{\"at\": 0, \"kind\": \"teleported\"}]}",
                "events[0].kind: unknown event kind \"teleported\""
            ),
            (
                "{\"version\": 1, \"events\": [{\"at\": 0, \"kind\": \"state\", \"state\": \"asleep\"}]}",
                "events[0].state: unknown state \"asleep\""
            ),
            (
                "{\"version\": 1, \"events\": [{\"at\": 0, \"kind\": \"state\", \"state\": \"failed\"}]}",
                "events[0]: kind \"state\" needs \"error\""
            ),
            (
                "{\"version\": 1, \"events\": [{\"at\": 0, \"kind\": \"found\"}]}",
                "events[0]: kind \"found\" needs \"service\""
            ),
            (
                "{\"version\": 1, \"events\": [{\"at\": \"soon\", \"kind\": \"found\"}]}",
                "events[0].at: expected Double"
            ),
            (
                "{\"version\": 1, \"events\": [{\"at\": -1, \"kind\": \"allForNow\", \"browseType\": \"x\"}]}",
                "events[0].at: -1.0 is not a time"
            ),
            (
                "{\"version\": 1, \"events\": [{\"at\": 2, \"kind\": \"allForNow\", \"browseType\": \"x\"}, {\"at\": 1, \"kind\": \"allForNow\", \"browseType\": \"x\"}]}",
                "events[1].at: 1.0 is earlier"
            ),
            (
                "{\"version\": 1, \"events\": [{\"at\": 0, \"kind\": \"found\", \"service\": {\"instance\": \"a\", \"host\": \"h\", \"port\": 70000}}]}",
                "events[0].service.port: 70000 is not a port number"
            ),
            ("[]", "top level: expected"),
            (
                "{\"version\": 1, \"events\": [{\"at\": 0, \"kind\": \"found\", \"service\": {\"instance\": \"a\", \"host\": \"h\", \"port\": 1, \"txtHex\": [\"6g\"]}}]}",
                "events[0].service.txtHex[0]: not an even number of hex digits"
            ),
            (
                "{\"version\": 1, \"events\": [{\"at\": 0, \"kind\": \"resolveFailed\", \"instance\": \"a\", \"error\": {\"kind\": \"oops\", \"message\": \"m\"}}]}",
                "events[0].error.kind: unknown error kind \"oops\""
            ),
        ])
    func badFiles(json: String, expected: String) {
        let error = Self.badInput { () throws(DiscoveryError) in _ = try ReplayRecording(json: Data(json.utf8)) }
        #expect(error?.kind == .badInput)
        #expect(error?.message.contains(expected) == true, "\(error?.message ?? "no error")")
    }

    @Test("bad paths and huge input give badInput errors")
    func badPaths() throws {
        let unknown = Self.badInput { () throws(DiscoveryError) in
            _ = try ReplayBackend(contentsOf: Self.replayDirectory.appendingPathComponent("bad-unknown-kind.json"))
        }
        #expect(unknown?.kind == .badInput)
        #expect(
            unknown?.message.contains("bad-unknown-kind.json: events[1].kind: unknown event kind \"teleported\"")
                == true)

        let missing = Self.badInput { () throws(DiscoveryError) in
            _ = try ReplayRecording(contentsOf: Self.replayDirectory.appendingPathComponent("no-such-file.json"))
        }
        #expect(missing?.kind == .badInput)
        #expect(missing?.message.contains("no such file") == true)

        let directory = Self.badInput { () throws(DiscoveryError) in
            _ = try ReplayRecording(contentsOf: Self.replayDirectory)
        }
        #expect(directory?.message.contains("is a directory") == true)

        let huge = Data(repeating: UInt8(ascii: " "), count: ReplayRecording.maximumFileSize + 1)
        let tooBig = Self.badInput { () throws(DiscoveryError) in _ = try ReplayRecording(json: huge) }
        #expect(tooBig?.kind == .badInput)
        #expect(tooBig?.message.contains("more than") == true)

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("replay-huge-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try huge.write(to: url)
        let bigFile = Self.badInput { () throws(DiscoveryError) in _ = try ReplayRecording(contentsOf: url) }
        #expect(bigFile?.message.contains("more than") == true)
    }

    @Test("a manager over the fixture lists what the network shows, with the DMR criteria and with all")
    func managerOverFixture() async throws {
        for criteria in [DiscoveryCriteria.defaultMediaReceiver, .all] {
            let backend = try ReplayBackend(contentsOf: Self.livingRoom, speed: 0, ending: .finish)
            let manager = DiscoveryManager(backend: backend, criteria: criteria)
            let (snapshot, stream) = manager.subscribe()
            var mirror = snapshot
            var names: [[String]] = []
            manager.startDiscovery()
            for await event in stream {
                event.listChange?.apply(to: &mirror)
                if event == .didUpdateDeviceList { names.append(mirror.map(\.friendlyName)) }
                if case .discoveryStopped = event { break }
            }
            #expect(mirror == manager.devices)
            // The group's two instance names are one device, which survives losing one of them.
            #expect(manager.devices.filter { $0.friendlyName == "Downstairs" }.count == 1)
            #expect(manager.devices.first { $0.friendlyName == "Downstairs" }?.port == 42001)
            if criteria == .all {
                #expect(names.contains(["Dev Emulator", "Downstairs", "Kitchen speaker", "Living Room TV"]))
                #expect(manager.devices.map(\.friendlyName) == ["Attic speaker", "Downstairs", "Living Room TV"])
            } else {
                #expect(!names.joined().contains("Dev Emulator"))
                // The Chromecast left the DMR browse at the end.
                #expect(manager.devices.map(\.friendlyName) == ["Attic speaker", "Downstairs"])
            }
        }
    }

    @Test(
        "a stalled consumer of a replay: the player waits for room, so every one of 20,000 events arrives in order, none folded"
    )
    func stalledConsumer() async throws {
        var recorded: [ReplayEvent] = [ReplayEvent(time: 0, event: .stateChanged(.running))]
        for version in 0..<2_000 {
            for index in 0..<10 {
                let service = StartupScript.service(index, version: version)
                recorded.append(ReplayEvent(time: 0, event: version == 0 ? .found(service) : .updated(service)))
            }
        }
        let backend = ReplayBackend(recording: try ReplayRecording(events: recorded), speed: 0, ending: .finish)
        let stream = try backend.events(browsing: [S.base])
        // The consumer's stall, not a wait for anything: the player fills the buffer (8,192)
        // and waits in it; a busy machine only shortens how far it gets, never fails the checks.
        try await Task.sleep(for: .milliseconds(300))
        var events: [BackendEvent] = []
        for await event in stream { events.append(event) }
        #expect(events.count == recorded.count)
        #expect(events == recorded.map(\.event), "every event, in order, none folded")
    }
}
