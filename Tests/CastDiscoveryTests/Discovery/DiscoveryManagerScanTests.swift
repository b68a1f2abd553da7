@testable import CastDiscovery
import Foundation
import Testing

/// `DiscoveryManager.scan(timeout:)` returns the list as it was when the scan ended, from the
/// manager's events alone.
@Suite("DiscoveryManager.scan", .timeLimit(.minutes(10)))
struct DiscoveryManagerScanTests {
    typealias S = TestService
    static let livingRoom = ReplayBackendTests.livingRoom

    @Test("a replay played at full speed scans to the list at its first all-for-now, every time")
    func listAtCompletion() async throws {
        for _ in 0..<25 {
            let backend = try ReplayBackend(contentsOf: Self.livingRoom, speed: 0, ending: .holdOpen)
            // Completes at the all-for-now: the timeout is only for a scan that never would.
            let result = try await DiscoveryManager(backend: backend).scan(timeout: .seconds(600))
            #expect(result.isComplete)
            #expect(
                result.devices.map(\.friendlyName) == [
                    "Dev Emulator", "Downstairs", "Kitchen speaker", "Living Room TV",
                ])
            #expect(result.devices.first { $0.friendlyName == "Living Room TV" }?.status == .idle)
            #expect(result.browses.map(\.reason) == [.allForNow])
        }
    }

    @Test("a scan that never completes returns at its timeout what its events listed, marked incomplete")
    func timeout() async throws {
        let recording = try ReplayRecording(contentsOf: Self.livingRoom)
        let withoutAllForNow = try ReplayRecording(
            events: recording.events.filter { event in
                switch event.event {
                case .allForNow, .cacheExhausted: false
                default: true
                }
            })
        let backend = ReplayBackend(recording: withoutAllForNow, speed: 0, ending: .holdOpen)
        let clock = ManualClock()
        let manager = DiscoveryManager(backend: backend, clock: clock)
        var reader = EventReader(manager.events())
        let scan = Task { try await manager.scan(timeout: .seconds(2)) }
        // Every recorded event played (three devices listed), the scan's time-out asleep: then
        // its two seconds pass at once.
        var inserted = 0
        _ = await reader.read { event in
            if case .inserted = event { inserted += 1 }
            return inserted == 3
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        let result = try await scan.value
        #expect(!result.isComplete)
        #expect(result.elapsed == .seconds(2))
        #expect(result.devices.count == 3, "every event played: \(result.devices.map(\.friendlyName))")
        #expect(result.browses.map(\.reason) == [nil])
    }

    @Test("a browse whose cache was delivered settles one quiet round after its last news, on the manager's clock")
    func quietRoundOnTheClock() async throws {
        let backend = ScriptedBackend()
        let clock = ManualClock()
        let manager = DiscoveryManager(backend: backend, clock: clock)
        var reader = EventReader(manager.events())
        let scan = Task { try await manager.scan(timeout: .seconds(30)) }
        await reader.started()
        backend.send(
            .browseStarted(browseType: S.base), .found(S.make("a", id: S.uuid(1), name: "A")),
            .cacheExhausted(browseType: S.base))
        _ = await reader.read { if case .cacheExhausted = $0 { true } else { false } }
        // The scan's time-out and the quiet round's deadline sleep on the clock.
        await clock.waitForSleepers(2)
        clock.advance(by: backend.queryRound - .milliseconds(1))
        #expect(clock.sleeperCount == 2 && !manager.isScanComplete, "a round has not passed")
        clock.advance(by: .milliseconds(1))
        let result = try await scan.value
        #expect(result.isComplete && result.devices.map(\.friendlyName) == ["A"])
        #expect(result.browses.map(\.reason) == [.quietRound])
        #expect(result.browses.first?.after == backend.queryRound)
    }

    @Test("the scan's list is the one at completion, not what the backend sent afterwards")
    func snapshotAtCompletion() async throws {
        let backend = ScriptedBackend()
        let manager = DiscoveryManager(backend: backend)
        var reader = EventReader(manager.events())
        let scan = Task { try await manager.scan(timeout: .seconds(600)) }
        await reader.started()
        backend.send(
            .browseStarted(browseType: S.base), .found(S.make("a", id: S.uuid(1), name: "A")),
            .allForNow(browseType: S.base),
            .found(S.make("b", id: S.uuid(2), name: "B")))
        let result = try await scan.value
        #expect(result.isComplete)
        #expect(result.devices.map(\.friendlyName) == ["A"])
        _ = await reader.read { if case .discoveryStopped = $0 { true } else { false } }
        #expect(manager.discoveryState == .stopped, "the scan stops what it started")
    }

    @Test("a failing backend makes the scan throw its error")
    func failure() async {
        let backend = ScriptedBackend()
        let refusal = DiscoveryError(kind: .discoveryServiceMissing, message: "no avahi-daemon")
        backend.failNextStart(refusal)
        await #expect(throws: refusal) { try await DiscoveryManager(backend: backend).scan(timeout: .seconds(5)) }
    }

    @Test("a scan of a manager whose scan already completed returns at once, and leaves it running")
    func alreadyComplete() async throws {
        let backend = ScriptedBackend()
        let manager = DiscoveryManager(backend: backend)
        var reader = EventReader(manager.events())
        manager.startDiscovery()
        await reader.started()
        _ = await reader.exchange(
            backend, .found(S.make("a", id: S.uuid(1), name: "A")), .allForNow(browseType: S.base))
        let result = try await manager.scan(timeout: .seconds(600))
        #expect(result.isComplete && result.elapsed == .zero)
        #expect(result.devices.map(\.friendlyName) == ["A"])
        #expect(manager.discoveryState == .running)
    }

    @Test(
        "a scan that fell behind its events goes on from the state they left: their completion completes it, a stop ends it, a failure throws"
    )
    func fellBehind() throws {
        let devices = [
            try CastDevice(service: StartupScript.service(1).service),
            try CastDevice(service: StartupScript.service(2).service),
        ]
        func missed(_ state: DiscoveryState, _ backend: BackendState? = .running, completion: ScanCompletion? = nil)
            -> DiscoveryEvent
        {
            .eventsDropped(
                MissedEvents(
                    count: 9_000, devices: devices, discoveryState: state, backendState: backend,
                    scanCompletion: completion))
        }
        let running = ScanMirror(devices: [])
        #expect(running.apply(missed(.running)) == nil, "still running, not complete: the scan goes on")
        #expect(running.state.devices == devices)
        // The following list changes apply to the missed events' list.
        #expect(running.apply(.removed(devices[0], at: 0)) == nil)
        #expect(running.state.devices == [devices[1]])

        let settled = BrowseSettlement(
            browseType: S.base, reason: .allForNow, after: .seconds(1), cacheDeliveredAfter: nil, services: 1)
        let completion = ScanCompletion(devices: [devices[0]], browses: [settled], elapsed: .seconds(1))
        let completed = ScanMirror(devices: [])
        #expect(completed.apply(missed(.running, completion: completion)) == .completed)
        #expect(
            completed.state.devices == [devices[0]] && completed.state.browses == [settled], "the list at completion")

        #expect(ScanMirror(devices: []).apply(missed(.stopped)) == .ended)
        let error = DiscoveryError(kind: .other, message: "the querier stopped")
        #expect(ScanMirror(devices: []).apply(missed(.stopped, .failed(error))) == .failed(error))
    }
}
