import CastDiscovery
import Foundation
import Testing

/// `DiscoveryManager.scan(timeout:)` returns the list as it was when the scan ended, from the
/// manager's events alone.
@Suite("DiscoveryManager.scan", .timeLimit(.minutes(1)))
struct DiscoveryManagerScanTests {
    typealias S = TestService
    static let livingRoom = ReplayBackendTests.livingRoom

    @Test("a replay played at full speed scans to the list at its first all-for-now, every time")
    func listAtCompletion() async throws {
        for _ in 0..<25 {
            let backend = try ReplayBackend(contentsOf: Self.livingRoom, speed: 0, ending: .holdOpen)
            let result = try await DiscoveryManager(backend: backend).scan(timeout: .seconds(5))
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
        let result = try await DiscoveryManager(backend: backend).scan(timeout: .milliseconds(200))
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
        let scan = Task { try await manager.scan(timeout: .seconds(30)) }
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
        let result = try await manager.scan(timeout: .seconds(30))
        #expect(result.isComplete && result.elapsed == .zero)
        #expect(result.devices.map(\.friendlyName) == ["A"])
        #expect(manager.discoveryState == .running)
    }
}
