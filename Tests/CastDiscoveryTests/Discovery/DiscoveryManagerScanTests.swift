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
            #expect(result.devices.map(\.friendlyName) == ["Dev Emulator", "Downstairs", "Kitchen speaker", "Living Room TV"])
            #expect(result.devices.first { $0.friendlyName == "Living Room TV" }?.status == .idle)
            #expect(result.browses.map(\.reason) == [.allForNow])
        }
    }

    @Test("a scan that never completes returns at its timeout what its events listed, marked incomplete")
    func timeout() async throws {
        let recording = try ReplayRecording(contentsOf: Self.livingRoom)
        let withoutAllForNow = try ReplayRecording(events: recording.events.filter { event in
            switch event.event {
            case .allForNow, .cacheExhausted: false
            default: true
            }
        })
        let backend = ReplayBackend(recording: withoutAllForNow, speed: 0, ending: .holdOpen)
        // Every event played before the scan starts, however long a loaded machine takes.
        let manager = DiscoveryManager(backend: backend)
        manager.startDiscovery()
        let deadline = ContinuousClock.now + .seconds(600)
        while manager.deviceCount < 3, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        let result = try await manager.scan(timeout: .milliseconds(200))
        #expect(!result.isComplete)
        #expect(result.elapsed >= .milliseconds(200))
        #expect(result.devices.count == 3, "every event played: \(result.devices.map(\.friendlyName))")
        #expect(result.browses.map(\.reason) == [nil])
    }

    @Test("the scan's list is the one at completion, not what the backend sent afterwards")
    func snapshotAtCompletion() async throws {
        let backend = ScriptedBackend()
        let manager = DiscoveryManager(backend: backend)
        var reader = EventReader(manager.events())
        let scan = Task { try await manager.scan(timeout: .seconds(600)) }
        await reader.started()
        backend.send(
            .browseStarted(browseType: S.base), .found(S.make("a", id: S.uuid(1), name: "A")), .allForNow(browseType: S.base),
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
        _ = await reader.exchange(backend, .found(S.make("a", id: S.uuid(1), name: "A")), .allForNow(browseType: S.base))
        let result = try await manager.scan(timeout: .seconds(600))
        #expect(result.isComplete && result.elapsed == .zero)
        #expect(result.devices.map(\.friendlyName) == ["A"])
        #expect(manager.discoveryState == .running)
    }

    @Test("a scan that fell behind its events goes on from the state they left: their completion completes it, a stop ends it, a failure throws")
    func fellBehind() throws {
        let devices = [try CastDevice(service: StartupScript.service(1).service), try CastDevice(service: StartupScript.service(2).service)]
        func missed(_ state: DiscoveryState, _ backend: BackendState? = .running, completion: ScanCompletion? = nil) -> DiscoveryEvent {
            .eventsDropped(MissedEvents(
                count: 9_000, devices: devices, discoveryState: state, backendState: backend, scanCompletion: completion))
        }
        let running = ScanMirror(devices: [])
        #expect(running.apply(missed(.running)) == nil, "still running, not complete: the scan goes on")
        #expect(running.state.devices == devices)
        // The following list changes apply to the missed events' list.
        #expect(running.apply(.removed(devices[0], at: 0)) == nil)
        #expect(running.state.devices == [devices[1]])

        let settled = BrowseSettlement(browseType: S.base, reason: .allForNow, after: .seconds(1), cacheDeliveredAfter: nil, services: 1)
        let completion = ScanCompletion(devices: [devices[0]], browses: [settled], elapsed: .seconds(1))
        let completed = ScanMirror(devices: [])
        #expect(completed.apply(missed(.running, completion: completion)) == .completed)
        #expect(completed.state.devices == [devices[0]] && completed.state.browses == [settled], "the list at completion")

        #expect(ScanMirror(devices: []).apply(missed(.stopped)) == .ended)
        let error = DiscoveryError(kind: .other, message: "the querier stopped")
        #expect(ScanMirror(devices: []).apply(missed(.stopped, .failed(error))) == .failed(error))
    }
}
