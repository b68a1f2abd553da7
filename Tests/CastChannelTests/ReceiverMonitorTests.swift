import CastChannel
import CastChannelTestSupport
import CastDiscovery
import CastTestSupport
import Testing

/// `ReceiverMonitor` against receivers on loopback that keep their connections: statuses and
/// broadcasts, a receiver that goes and comes back, a heartbeat that stops, forgetting, bounds.
/// Each test waits for the events it expects (a guard of 60 s against a hang), never a fixed time.
@Suite("Receiver monitor")
struct ReceiverMonitorTests {
    static let idle =
        #"{"applications":[{"appId":"E8C28D3C","displayName":"Backdrop","isIdleScreen":true}],"volume":{"level":0.5,"muted":false}}"#
    static let playing =
        #"{"applications":[{"appId":"CC1AD845","displayName":"Default Media Receiver","statusText":"Big Buck Bunny"}],"volume":{"level":0.25}}"#

    /// Fast retries, so a test sees several rounds quickly; the heartbeat as devices keep it
    /// (a short silence limit could call a channel lost while a loaded machine runs other tests).
    static let fast = ReceiverMonitor.Configuration(
        attemptTimeout: .seconds(30),
        retry: RetrySchedule(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(100)))

    /// ``fast`` with a heartbeat of 100 ms and a silence limit of 400 ms, for the test of a lost one.
    static let fastHeartbeat: ReceiverMonitor.Configuration = {
        var configuration = fast
        configuration.timing = .init(heartbeatInterval: .milliseconds(100), silenceLimit: .milliseconds(400))
        return configuration
    }()

    static func device(_ id: String, port: UInt16, address: String? = "127.0.0.1") throws -> CastDevice {
        let addresses = try address.map { [try #require(ServiceAddress($0))] } ?? []
        return try CastDevice(
            service: ResolvedService(
                instanceName: "Chromecast-\(id)", hostName: "\(id).local", port: port, addresses: addresses,
                txt: ["id=\(id)", "fn=TV \(id)", "ve=05", "ca=5", "st=0"]))
    }

    /// The monitor's events, read one at a time with a guard against a hang.
    final class Events: @unchecked Sendable {
        private var iterator: AsyncStream<ReceiverMonitorEvent>.Iterator

        init(_ monitor: ReceiverMonitor) {
            iterator = monitor.events.makeAsyncIterator()
        }

        /// The next event that `matches`, skipping the others; nil when the stream ended or
        /// 60 s passed.
        func next(where matches: (ReceiverMonitorEvent) -> Bool = { _ in true }) async -> ReceiverMonitorEvent? {
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                guard let event = await iterator.next() else { return nil }
                if matches(event) { return event }
            }
            return nil
        }
    }

    static func code(_ event: ReceiverMonitorEvent?) -> CastChannelError.Code? { event?.result.error?.code }

    /// A kept receiver, a started monitor with the fast configuration and its events, and the
    /// device `id` watched at the receiver.
    struct Setup {
        let receiver: LoopbackKeptReceiver
        let states = ReceiverStates()
        let monitor: ReceiverMonitor
        let events: Events

        init(watching id: String, configuration: ReceiverMonitor.Configuration = ReceiverMonitorTests.fast) throws {
            let receiver = try LoopbackKeptReceiver(status: ReceiverMonitorTests.idle)
            let monitor: ReceiverMonitor
            do {
                monitor = try ReceiverMonitor(states: states, configuration: configuration)
            } catch {
                receiver.stop()
                throw error
            }
            // From here both are stopped if anything throws.
            do {
                try monitor.start()
                monitor.watch(try ReceiverMonitorTests.device(id, port: receiver.port))
            } catch {
                monitor.stop()
                receiver.stop()
                throw error
            }
            (self.receiver, self.monitor, events) = (receiver, monitor, Events(monitor))
        }

        func stop() {
            monitor.stop()
            receiver.stop()
        }
    }

    @Test("the first status, then a broadcast change; the store has the latest")
    func statusAndBroadcast() async throws {
        let setup = try Setup(watching: "a")
        defer { setup.stop() }
        let (receiver, states, events) = (setup.receiver, setup.states, setup.events)
        let first = await events.next()
        guard case .status(let id, let result)? = first else { Issue.record("\(String(describing: first))"); return }
        #expect(id == "googlecast:a")
        #expect(result.status?.applications?.first?.displayName == "Backdrop")
        #expect(result.connectDuration != nil && result.tlsDuration != nil && result.statusDuration != nil)
        receiver.setStatus(Self.playing)
        let second = await events.next()
        guard case .status(_, let changed)? = second else { Issue.record("\(String(describing: second))"); return }
        #expect(changed.status?.applications?.first?.statusText == "Big Buck Bunny")
        #expect(states.entry(for: "googlecast:a")?.result.status?.volume?.level == 0.25)
        #expect(receiver.accepted == 1, "one kept connection, not one per status")
    }

    @Test("a receiver that goes away: unreachable once, while refused; reachable again with its status when it returns")
    func goesAndReturns() async throws {
        let setup = try Setup(watching: "b")
        defer { setup.stop() }
        let (receiver, states, events) = (setup.receiver, setup.states, setup.events)
        guard case .status? = await events.next() else { Issue.record("no first status"); return }
        receiver.pause()
        let lost = await events.next()
        guard case .unreachable? = lost else { Issue.record("\(String(describing: lost))"); return }
        #expect(Self.code(lost) == .closed || Self.code(lost) == .refused, "\(String(describing: lost))")
        // Retried while refused, without another unreachable event.
        #expect(
            await Eventually.wait(timeout: .seconds(60)) {
                (states.entry(for: "googlecast:b")?.failures[.refused] ?? 0) >= 3
            })
        try receiver.resume()
        let back = await events.next()
        guard case .reachable(_, let result)? = back else { Issue.record("\(String(describing: back))"); return }
        #expect(result.isReachable)
        let status = await events.next()
        guard case .status? = status else { Issue.record("\(String(describing: status))"); return }
        #expect(states.entry(for: "googlecast:b")?.result.isReachable == true)
    }

    @Test("a receiver that stops answering PINGs is unreachable (the heartbeat lost) and comes back when it answers")
    func heartbeatLost() async throws {
        let setup = try Setup(watching: "c", configuration: Self.fastHeartbeat)
        defer { setup.stop() }
        let (receiver, events) = (setup.receiver, setup.events)
        guard case .status? = await events.next() else { Issue.record("no first status"); return }
        receiver.answerPings(false)
        let lost = await events.next()
        guard case .unreachable? = lost else { Issue.record("\(String(describing: lost))"); return }
        #expect(
            Self.code(lost) == .timeout && lost?.result.error?.message.contains("heartbeat") == true,
            "\(String(describing: lost))")
        receiver.answerPings(true)
        let back = await events.next()
        guard case .reachable? = back else { Issue.record("\(String(describing: back))"); return }
    }

    @Test(
        "forget closes the channel and drops the state; no address is unreachable (resolve); a new address reconnects")
    func forgetAndAddresses() async throws {
        let first = try LoopbackKeptReceiver(status: Self.idle)
        defer { first.stop() }
        let second = try LoopbackKeptReceiver(status: Self.playing)
        defer { second.stop() }
        let states = ReceiverStates()
        let monitor = try ReceiverMonitor(states: states, configuration: Self.fast)
        defer { monitor.stop() }
        let events = Events(monitor)
        try monitor.start()
        monitor.watch(try Self.device("d", port: first.port))
        guard case .status? = await events.next() else { Issue.record("no first status"); return }
        // The device moved: the channel follows it.
        monitor.watch(try Self.device("d", port: second.port))
        let moved = await events.next()
        guard case .status(_, let result)? = moved else { Issue.record("\(String(describing: moved))"); return }
        #expect(result.port == second.port && result.status?.applications?.first?.appId == "CC1AD845")
        #expect(await Eventually.wait(timeout: .seconds(60)) { first.openConnections == 0 })
        monitor.forget("googlecast:d")
        #expect(
            await Eventually.wait(timeout: .seconds(60)) {
                second.openConnections == 0 && states.entry(for: "googlecast:d") == nil
            })
        monitor.watch(try Self.device("e", port: 8009, address: nil))
        let none = await events.next()
        #expect(Self.code(none) == .resolve, "\(String(describing: none))")
    }

    @Test(
        "an address that cannot even be connected to (link-local IPv6 without its interface) is unreachable at once, and retried"
    )
    func connectFailsAtOnce() async throws {
        let states = ReceiverStates()
        let monitor = try ReceiverMonitor(states: states, configuration: Self.fast)
        defer { monitor.stop() }
        let events = Events(monitor)
        try monitor.start()
        monitor.watch(try Self.device("ll", port: 8009, address: "fe80::1"))
        let event = await events.next()
        guard case .unreachable? = event else { Issue.record("\(String(describing: event))"); return }
        #expect(
            await Eventually.wait(timeout: .seconds(60)) {
                (states.entry(for: "googlecast:ll")?.failures.values.reduce(0, +) ?? 0) >= 3
            }, "retried after the backoff")
    }

    @Test("keep(only:) forgets the devices a list taken whole no longer has")
    func keepOnly() async throws {
        let setup = try Setup(watching: "k1")
        defer { setup.stop() }
        let other = try LoopbackKeptReceiver(status: Self.idle)
        defer { other.stop() }
        let second = try Self.device("k2", port: other.port)
        setup.monitor.watch(second)
        #expect(
            await Eventually.wait(timeout: .seconds(60)) {
                setup.receiver.openConnections == 1 && other.openConnections == 1
            })
        setup.monitor.keep(only: [second])
        #expect(
            await Eventually.wait(timeout: .seconds(60)) {
                setup.receiver.openConnections == 0 && setup.states.entry(for: "googlecast:k1") == nil
            })
        #expect(other.openConnections == 1 && other.accepted == 1, "the kept device's channel is not touched")
    }

    @Test("a monitor stopped before it started ends its events")
    func stoppedUnstarted() async throws {
        let monitor = try ReceiverMonitor(states: ReceiverStates(), configuration: Self.fast)
        let events = Events(monitor)
        monitor.stop()
        #expect(await events.next() == nil)
    }

    @Test("twenty devices on one loop: every status; past maximumDevices, devices are counted, not watched")
    func many() async throws {
        let receivers = try (0..<20).map { _ in try LoopbackKeptReceiver(status: Self.idle) }
        defer { receivers.forEach { $0.stop() } }
        var configuration = Self.fast
        configuration.maximumDevices = 15
        configuration.maximumAttempts = 4
        let states = ReceiverStates()
        let monitor = try ReceiverMonitor(states: states, configuration: configuration)
        defer { monitor.stop() }
        try monitor.start()
        for (index, receiver) in receivers.enumerated() {
            monitor.watch(try Self.device("m\(index)", port: receiver.port))
        }
        #expect(
            await Eventually.wait(timeout: .seconds(60)) {
                (0..<15).allSatisfy { states.entry(for: "googlecast:m\($0)")?.result.isReachable == true }
            })
        #expect(monitor.unwatchedDevices == 5)
        #expect(receivers[15...].allSatisfy { $0.accepted == 0 })
    }

    @Test("stop closes every channel and ends the events")
    func stop() async throws {
        let setup = try Setup(watching: "s")
        defer { setup.stop() }
        let (receiver, monitor, events) = (setup.receiver, setup.monitor, setup.events)
        guard case .status? = await events.next() else { Issue.record("no first status"); return }
        monitor.stop()
        #expect(await events.next() == nil)
        #expect(await Eventually.wait(timeout: .seconds(60)) { receiver.openConnections == 0 })
    }
}
