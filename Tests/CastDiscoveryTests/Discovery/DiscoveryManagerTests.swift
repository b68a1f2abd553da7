@testable import CastDiscovery
import Foundation
import Testing

@Suite("DiscoveryManager", .timeLimit(.minutes(10)))
struct DiscoveryManagerTests {
    typealias S = TestService

    @Test("start: browses the criteria's types, reports started and the backend state")
    func start() async {
        let backend = ScriptedBackend()
        let manager = DiscoveryManager(backend: backend, criteria: .defaultMediaReceiver)
        var reader = EventReader(manager.events())
        #expect(manager.discoveryState == .stopped)
        manager.startDiscovery()
        #expect(await reader.next() == .discoveryStarted(browseTypes: [S.base, S.dmr]))
        // The getters show the state as of the last published event.
        #expect(manager.discoveryState == .running)
        #expect(backend.browses == [[S.base, S.dmr]])
        #expect(!manager.discoveryActive)
        let events = await reader.exchange(backend, .stateChanged(.connecting), .stateChanged(.running))
        #expect(events == [.backendStateChanged(.connecting), .backendStateChanged(.running)])
        #expect(manager.discoveryActive)
        #expect(manager.backendState == .running)
        manager.startDiscovery()
        manager.stopDiscovery()
        #expect(await reader.next() == .discoveryStopped(.requested))
        #expect(backend.browses.count == 1, "a start while running changes nothing")
        #expect(!manager.discoveryActive)
        #expect(manager.discoveryState == .stopped)
    }

    @Test("each backend event that changes the list is one bracketed batch with indices")
    func batches() async {
        let backend = ScriptedBackend()
        let manager = DiscoveryManager(backend: backend)
        var reader = EventReader(manager.events())
        manager.startDiscovery()
        _ = await reader.next()
        let first = await reader.exchange(backend, .found(S.make("b", id: S.uuid(2), name: "Beta")))
        #expect(first.map(\.summary) == ["will", "insert Beta@0", "did"])
        let second = await reader.exchange(
            backend, .found(S.make("a", id: S.uuid(1), name: "Alpha")),
            .found(S.make("a-1", id: S.uuid(1), name: "Alpha")))
        #expect(second.map(\.summary) == ["will", "insert Alpha@0", "did", "will", "update Alpha@0", "did"])
        let third = await reader.exchange(
            backend, .updated(S.make("a-1", id: S.uuid(1), name: "Omega")), .allForNow(browseType: S.base),
            .resolveFailed(S.make("x", id: "1", name: "x").key, DiscoveryError(kind: .daemonError, message: "timeout")))
        #expect(
            third.map(\.summary) == [
                "will", "move Omega@0->1", "did", "all for now \(S.base)", "settled \(S.base) by allForNow", "complete",
                "resolve failed x",
            ])
        #expect(manager.deviceCount == 2)
        #expect(manager.hasDiscoveredDevices)
        #expect(manager.device(at: 1)?.friendlyName == "Omega")
        #expect(manager.device(at: 2) == nil)
        #expect(manager.device(at: -1) == nil)
        #expect(manager.device(withUniqueID: "googlecast:" + S.uuid(1))?.friendlyName == "Omega")
        let removal = await reader.exchange(
            backend, .removed(S.make("a", id: S.uuid(1), name: "Alpha")),
            .removed(S.make("a-1", id: S.uuid(1), name: "Omega")))
        #expect(removal.map(\.summary) == ["will", "remove Omega@1", "did"])
    }

    @Test("criteria: listed only while in a subtype browse")
    func criteria() async {
        let backend = ScriptedBackend()
        let manager = DiscoveryManager(backend: backend, criteria: .defaultMediaReceiver)
        var reader = EventReader(manager.events())
        manager.startDiscovery()
        _ = await reader.next()
        #expect(await reader.exchange(backend, .found(S.make("a", id: S.uuid(1), name: "TV"))).isEmpty)
        #expect(manager.deviceCount == 0)
        let joined = await reader.exchange(
            backend, .updated(S.make("a", id: S.uuid(1), name: "TV", browse: [S.base, S.dmr])))
        #expect(joined.map(\.summary) == ["will", "insert TV@0", "did"])
        let left = await reader.exchange(backend, .updated(S.make("a", id: S.uuid(1), name: "TV", browse: [S.base])))
        #expect(left.map(\.summary) == ["will", "remove TV@0", "did"])
    }

    @Test("restart with devices from the last run: reported before scanning, unseen ones removed at all-for-now")
    func restart() async {
        let backend = ScriptedBackend()
        let manager = DiscoveryManager(backend: backend)
        var reader = EventReader(manager.events())
        manager.startDiscovery()
        await reader.started()
        _ = await reader.exchange(
            backend, .found(S.make("a", id: S.uuid(1), name: "A")), .found(S.make("b", id: S.uuid(2), name: "B")))
        manager.stopDiscovery()
        #expect(manager.deviceCount == 2)
        // Events sent to the old run after stop are ignored.
        backend.send(.removed(S.make("a", id: S.uuid(1), name: "A")))
        manager.startDiscovery()
        let start = await reader.read { $0 == .hadDiscoveredDevicesWhenStarting(count: 2) }
        #expect(start.map(\.summary) == ["stopped requested", "started", "had 2"])
        #expect(manager.deviceCount == 2)
        let sweep = await reader.exchange(
            backend, .found(S.make("a", id: S.uuid(1), name: "A")), .allForNow(browseType: S.base))
        #expect(
            sweep.map(\.summary) == [
                "will", "remove B@1", "did", "all for now \(S.base)", "settled \(S.base) by allForNow", "complete",
            ])
        #expect(manager.devices.map(\.friendlyName) == ["A"])

        // No devices: no report.
        manager.stopDiscovery()
        manager.startDiscovery()
        _ = await reader.read { $0 == .discoveryStarted(browseTypes: [S.base]) }
        let more = await reader.exchange(backend, .removed(S.make("a", id: S.uuid(1), name: "A")))
        #expect(more.map(\.summary) == ["had 1", "will", "remove A@0", "did"])
        manager.stopDiscovery()
        manager.startDiscovery()
        let restarted = await reader.started()
        #expect(restarted.map(\.summary) == ["stopped requested", "started"])
        let empty = await reader.exchange(backend)
        #expect(!empty.contains { if case .hadDiscoveredDevicesWhenStarting = $0 { true } else { false } })
    }

    @Test("find: at once when listed, on arrival, nil on timeout; a new find ends the old with nil")
    func find() async throws {
        let backend = ScriptedBackend()
        let clock = ManualClock()
        let manager = DiscoveryManager(backend: backend, clock: clock)
        var reader = EventReader(manager.events())
        manager.startDiscovery()
        await reader.started()
        _ = await reader.exchange(backend, .found(S.make("a", id: S.uuid(1), name: "A")))
        #expect(await manager.find(uniqueID: "googlecast:" + S.uuid(1), timeout: .seconds(30))?.friendlyName == "A")
        // The time-out runs on the manager's clock: nil once its five seconds have passed there.
        let missing = Task { await manager.find(uniqueID: S.uuid(9), timeout: .seconds(5)) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5))
        #expect(await missing.value == nil)

        let old = Task { await manager.find(uniqueID: S.uuid(2), timeout: .seconds(600)) }
        while manager.pendingFindID == nil { await Task.yield() }
        #expect(manager.pendingFindID == "googlecast:" + S.uuid(2))
        let new = Task { await manager.find(uniqueID: S.uuid(3), timeout: .seconds(600)) }
        #expect(await old.value == nil)
        _ = await reader.exchange(backend, .found(S.make("c", id: S.uuid(3), name: "C")))
        #expect(await new.value?.friendlyName == "C")
        #expect(manager.pendingFindID == nil)
    }

    @Test("find: cancelling the caller gives nil")
    func findCancelled() async throws {
        let manager = DiscoveryManager(backend: ScriptedBackend())
        let task = Task { await manager.find(uniqueID: S.uuid(5), timeout: .seconds(600)) }
        task.cancel()
        #expect(await task.value == nil)
    }

    final class RecordingDelegate: DiscoveryManagerDelegate {
        let calls = LockedValue<[String]>([])
        let done: AsyncStream<Void>.Continuation
        let doneStream: AsyncStream<Void>

        init() {
            (doneStream, done) = AsyncStream.makeStream(of: Void.self)
        }

        private func record(_ text: String) { calls.withLock { $0.append(text) } }

        func discoveryManager(_ manager: DiscoveryManager, didStartDiscoveryBrowsing browseTypes: [String]) {
            record("started")
        }
        func discoveryManagerDidHaveDiscoveredDeviceWhenStartingDiscovery(_ manager: DiscoveryManager) { record("had") }
        func discoveryManager(_ manager: DiscoveryManager, didStopDiscovery reason: DiscoveryStopReason) {
            record("stopped \(reason)")
            done.yield()
        }
        func discoveryManager(_ manager: DiscoveryManager, didFailToStartDiscovery error: DiscoveryError) {
            record("failed to start")
        }
        func discoveryManagerWillUpdateDeviceList(_ manager: DiscoveryManager) { record("will") }
        func discoveryManagerDidUpdateDeviceList(_ manager: DiscoveryManager) { record("did") }
        func discoveryManager(_ manager: DiscoveryManager, didInsert device: CastDevice, at index: Int) {
            record("insert \(device.friendlyName)@\(index)")
        }
        func discoveryManager(_ manager: DiscoveryManager, didUpdate device: CastDevice, at index: Int) {
            record("update \(device.friendlyName)@\(index)")
        }
        func discoveryManager(
            _ manager: DiscoveryManager, didUpdate device: CastDevice, at index: Int, andMoveTo newIndex: Int
        ) {
            record("move \(device.friendlyName)@\(index)->\(newIndex)")
        }
        func discoveryManager(_ manager: DiscoveryManager, didRemoveDeviceAt index: Int) { record("remove@\(index)") }
        func discoveryManager(_ manager: DiscoveryManager, didRemove device: CastDevice, at index: Int) {
            record("remove \(device.friendlyName)@\(index)")
        }
        func discoveryManager(_ manager: DiscoveryManager, didChangeBackendState state: BackendState) {
            record("backend \(state)")
        }
        func discoveryManager(_ manager: DiscoveryManager, didExhaustCacheFor browseType: String) {
            record("cache \(browseType)")
        }
        func discoveryManager(_ manager: DiscoveryManager, didReceiveAllForNowFor browseType: String) {
            record("all for now \(browseType)")
        }
        func discoveryManager(_ manager: DiscoveryManager, didFailToResolve service: ServiceKey, error: DiscoveryError)
        {
            record("resolve failed \(service.name)")
        }
        func discoveryManager(_ manager: DiscoveryManager, didSettle browse: BrowseSettlement) {
            record("settled \(browse.browseType) by \(browse.reason.map(\.rawValue) ?? "-")")
        }
        func discoveryManager(_ manager: DiscoveryManager, didCompleteScan completion: ScanCompletion) {
            record("complete")
        }
    }

    @Test("the delegate gets the same events as the stream, in order, both removal calls included")
    func delegateMatchesStream() async {
        let backend = ScriptedBackend()
        let manager = DiscoveryManager(backend: backend)
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        var reader = EventReader(manager.events())
        manager.startDiscovery()
        var streamed = [await reader.next()!]
        streamed += await reader.exchange(
            backend, .stateChanged(.running), .found(S.make("b", id: S.uuid(2), name: "B")),
            .found(S.make("a", id: S.uuid(1), name: "A")), .updated(S.make("a", id: S.uuid(1), name: "C")),
            .updated(S.make("b", id: S.uuid(2), name: "B", status: "1")), .allForNow(browseType: S.base),
            .removed(S.make("a", id: S.uuid(1), name: "C")),
            .resolveFailed(S.make("z", id: "1", name: "z").key, DiscoveryError(kind: .daemonError, message: "t")))
        manager.stopDiscovery()
        streamed.append(await reader.next()!)
        var doneIterator = delegate.doneStream.makeAsyncIterator()
        _ = await doneIterator.next()
        let expected = streamed.flatMap { event -> [String] in
            if case .removed(let device, let index) = event {
                return ["remove@\(index)", "remove \(device.friendlyName)@\(index)"]
            }
            return [event.summary]
        }
        let calls = delegate.calls.withLock { $0 }.filter { $0 != "cache marker-1" }
        #expect(calls == expected)
        #expect(calls.contains("move C@0->1"))
        #expect(calls.contains("update B@0"))
    }

    @Test("the delegate is held weakly")
    func weakDelegate() {
        let manager = DiscoveryManager(backend: ScriptedBackend())
        var delegate: RecordingDelegate? = RecordingDelegate()
        manager.delegate = delegate
        #expect(manager.delegate != nil)
        delegate = nil
        #expect(manager.delegate == nil)
    }

    @Test("a backend failure stops discovery; a refused start reports and stays stopped")
    func failures() async {
        let backend = ScriptedBackend()
        let manager = DiscoveryManager(backend: backend)
        var reader = EventReader(manager.events())
        let refusal = DiscoveryError(kind: .discoveryServiceMissing, message: "no avahi-daemon")
        backend.failNextStart(refusal)
        manager.startDiscovery()
        #expect(await reader.next() == .discoveryFailedToStart(refusal))
        #expect(manager.discoveryState == .stopped)

        manager.startDiscovery()
        _ = await reader.next()
        let failure = DiscoveryError(kind: .daemonError, message: "gone")
        backend.send(.stateChanged(.failed(failure)))
        let events = await reader.read { if case .discoveryStopped = $0 { true } else { false } }
        #expect(events == [.backendStateChanged(.failed(failure)), .discoveryStopped(.backendFailed(failure))])
        #expect(manager.discoveryState == .stopped)

        manager.startDiscovery()
        _ = await reader.next()
        backend.finish()
        #expect(await reader.next() == .discoveryStopped(.backendEnded))
        #expect(manager.discoveryState == .stopped)
    }

    @Test("stopping ends the backend's event stream")
    func stopEndsBackendStream() async {
        let backend = ScriptedBackend()
        let manager = DiscoveryManager(backend: backend)
        var reader = EventReader(manager.events())
        manager.startDiscovery()
        await reader.started()
        _ = await reader.exchange(backend)
        manager.stopDiscovery()
        _ = await reader.next()
        while backend.terminations == 0 { await Task.yield() }
        #expect(backend.terminations == 1)
    }

    @Test("passiveScan is recorded and reported")
    func passiveScan() {
        let manager = DiscoveryManager(backend: ScriptedBackend())
        #expect(!manager.passiveScan)
        manager.passiveScan = true
        #expect(manager.passiveScan)
    }

    @Test("a subscriber's snapshot plus its events mirrors the list under random traffic", arguments: [UInt64(7), 8])
    func subscriberMirror(seed: UInt64) async {
        let backend = ScriptedBackend()
        let manager = DiscoveryManager(backend: backend, criteria: seed == 7 ? .all : .defaultMediaReceiver)
        var starting = EventReader(manager.events())
        manager.startDiscovery()
        await starting.started()
        var rng = SeededGenerator(seed: seed)
        var known: [ServiceKey] = []
        for _ in 0..<300 {
            let event = DeviceListPropertyTests.randomEvent(&rng, known: known)
            if case .found(let service) = event { known.append(service.key) }
            backend.send(event)
        }
        let (snapshot, stream) = manager.subscribe()
        var reader = EventReader(stream)
        var mirror = snapshot
        for _ in 0..<1500 {
            let event = DeviceListPropertyTests.randomEvent(&rng, known: known)
            if case .found(let service) = event { known.append(service.key) }
            for discoveryEvent in await reader.exchange(backend, event) {
                discoveryEvent.listChange?.apply(to: &mirror)
            }
            guard mirror == manager.devices else {
                Issue.record("mirror diverged after \(event)")
                return
            }
        }
        #expect(!mirror.isEmpty)
    }

    @Test("calls from many tasks at once leave a consistent manager")
    func concurrentUse() async {
        let backend = ScriptedBackend()
        let manager = DiscoveryManager(backend: backend)
        await withTaskGroup(of: Void.self) { group in
            for n in 0..<200 {
                group.addTask {
                    switch n % 4 {
                    case 0: manager.startDiscovery()
                    case 1: manager.stopDiscovery()
                    case 2: backend.send(.found(S.make("i\(n)", id: S.uuid(n), name: "N\(n)")))
                    default: _ = (manager.deviceCount, manager.devices, manager.discoveryActive)
                    }
                }
            }
        }
        // The tasks' starts and stops may still wait in the loop's queue: a find goes through the
        // same queue, so once it returns the loop has taken them all, and the one discoveryStarted
        // read below is the fresh start's (not a queued one's, whose stream a queued stop ends).
        _ = await manager.find(uniqueID: S.uuid(12345), timeout: .milliseconds(1))
        // Stop whatever the tasks left running, then start afresh, so the last event reaches the
        // stream the manager listens to.
        var reader = EventReader(manager.events())
        manager.stopDiscovery()
        manager.startDiscovery()
        await reader.started()
        _ = await reader.exchange(backend, .found(S.make("last", id: S.uuid(999), name: "Last")))
        #expect(manager.discoveryState == .running)
        #expect(manager.device(withUniqueID: S.uuid(999)) != nil)
        #expect(manager.devices.count == manager.deviceCount)
    }
}
