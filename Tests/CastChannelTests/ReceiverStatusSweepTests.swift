import CastChannel
import CastDiscovery
import CastTestSupport
import Testing

/// `ReceiverStatusSweep`: each device asked once, at most `concurrency` at once, all by one
/// deadline on an injected clock; the results in `ReceiverStates` by unique ID.
@Suite("Receiver status sweep")
struct ReceiverStatusSweepTests {
    static func device(_ id: String, address: String? = "10.0.0.1", port: UInt16 = 8009, interface: String? = nil)
        throws -> CastDevice
    {
        let addresses = try address.map { [try #require(ServiceAddress($0, interfaceName: interface))] } ?? []
        return try CastDevice(
            service: ResolvedService(
                instanceName: "Chromecast-\(id)", hostName: "\(id).local", port: port, addresses: addresses,
                txt: ["id=\(id)", "fn=TV \(id)", "ve=05", "ca=5", "st=0"]))
    }

    /// A probe that records what it was asked and answers when `release` is called for the host,
    /// or with `timeout` when its task is cancelled.
    final class Probes: Sendable {
        private let box = LockedValue<
            (
                asked: [String], timeouts: [String: Duration], waiting: [String: CheckedContinuation<Void, Never>],
                released: Set<String>
            )
        >(([], [:], [:], []))

        var asked: [String] { box.withLock { $0.asked } }
        func timeout(of host: String) -> Duration? { box.withLock { $0.timeouts[host] } }
        var running: Int { box.withLock { $0.waiting.count } }

        func release(_ host: String) {
            let waiter = box.withLock { state in
                state.released.insert(host)
                return state.waiting.removeValue(forKey: host)
            }
            waiter?.resume()
        }

        func probe(_ endpoint: ReceiverEndpoint, _ timeout: Duration) async -> ReceiverProbeResult {
            box.withLock { state in
                state.asked.append(endpoint.host)
                state.timeouts[endpoint.host] = timeout
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let now = box.withLock { state -> Bool in
                        if state.released.contains(endpoint.host) { return true }
                        state.waiting[endpoint.host] = continuation
                        return false
                    }
                    if now { continuation.resume() }
                }
            } onCancel: {
                release(endpoint.host)
            }
            var result = ReceiverProbeResult(host: endpoint.host, port: endpoint.port)
            if Task.isCancelled {
                result.error = CastChannelError(.timeout, "cancelled")
            } else {
                result.status = ReceiverStatus()
            }
            return result
        }
    }

    @Test("each device once (by unique ID), with what is left of the deadline; finish waits for the answers")
    func once() async throws {
        let clock = ManualClock()
        let probes = Probes(), states = ReceiverStates()
        let sweep = ReceiverStatusSweep(
            states: states, deadline: clock.now + .seconds(5), clock: clock, probe: { await probes.probe($0, $1) })
        sweep.ask(try Self.device("a", address: "10.0.0.1"))
        clock.advance(by: .seconds(1))
        sweep.ask(try Self.device("b", address: "10.0.0.2", port: 8010))
        sweep.ask(try Self.device("a", address: "10.0.0.9"))
        #expect(await Eventually.wait { probes.running == 2 })
        #expect(probes.asked.sorted() == ["10.0.0.1", "10.0.0.2"])
        #expect(probes.timeout(of: "10.0.0.1") == .seconds(5))
        #expect(probes.timeout(of: "10.0.0.2") == .seconds(4))
        let finished = Task { await sweep.finish() }
        probes.release("10.0.0.1")
        probes.release("10.0.0.2")
        await finished.value
        let a = try #require(states.entry(for: "googlecast:a")?.result)
        #expect(a.isReachable && a.port == 8009)
        #expect(states.entry(for: "googlecast:b")?.result.port == 8010)
        #expect(states.count == 2)
    }

    @Test(
        "at most `concurrency` at once; at the deadline the waiting are not asked, and the running are cancelled soon after"
    )
    func deadline() async throws {
        let clock = ManualClock()
        let probes = Probes(), states = ReceiverStates()
        let sweep = ReceiverStatusSweep(
            states: states, deadline: clock.now + .seconds(2), clock: clock, concurrency: 2,
            probe: { await probes.probe($0, $1) })
        for index in 1...5 { sweep.ask(try Self.device("d\(index)", address: "10.0.0.\(index)")) }
        #expect(await Eventually.wait { probes.running == 2 })
        probes.release("10.0.0.1")  // answers: the third starts
        #expect(await Eventually.wait { probes.asked.count == 3 && probes.running == 2 })
        let finished = Task { await sweep.finish() }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        // The waiting ones are not asked at the deadline; the running ones have a moment more.
        #expect(await Eventually.wait { states.entry(for: "googlecast:d5") != nil })
        #expect(states.entry(for: "googlecast:d2") == nil)
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(150))
        await finished.value
        #expect(probes.asked == ["10.0.0.1", "10.0.0.2", "10.0.0.3"])
        #expect(states.entry(for: "googlecast:d1")?.result.isReachable == true)
        for id in ["d2", "d3"] {
            #expect(states.entry(for: "googlecast:\(id)")?.result.error?.message == "cancelled", "\(id)")
        }
        for id in ["d4", "d5"] {
            let error = try #require(states.entry(for: "googlecast:\(id)")?.result.error)
            #expect(error.code == .timeout && error.message.hasPrefix("not asked"), "\(id)")
        }
        #expect(states.entry(for: "googlecast:d4")?.failures[.timeout] == 1)
    }

    @Test("a device without an address is not asked: resolve; finish returns at once when nothing runs")
    func noAddress() async throws {
        let clock = ManualClock()
        let probes = Probes(), states = ReceiverStates()
        let sweep = ReceiverStatusSweep(
            states: states, deadline: clock.now + .seconds(5), clock: clock, probe: { await probes.probe($0, $1) })
        sweep.ask(try Self.device("none", address: nil))
        await sweep.finish()
        #expect(probes.asked.isEmpty)
        #expect(states.entry(for: "googlecast:none")?.result.error?.code == .resolve)
    }

    @Test("a judge gives each answer its verdict as it comes, recorded beside the result")
    func judged() async throws {
        let clock = ManualClock()
        let states = ReceiverStates()
        let judged = LockedValue<[String]>([])
        let sweep = ReceiverStatusSweep(
            states: states, deadline: clock.now + .seconds(5), clock: clock,
            probe: { endpoint, _ in
                var result = ReceiverProbeResult(host: endpoint.host, port: endpoint.port)
                result.status = ReceiverStatus()
                return result
            },
            judge: { result in
                judged.withLock { $0.append(result.host) }
                return .noResponse("judged \(result.host)")
            })
        sweep.ask(try Self.device("one", address: "10.0.0.1"))
        sweep.ask(try Self.device("two", address: "10.0.0.2"))
        await sweep.finish()
        #expect(judged.withLock { Set($0) } == ["10.0.0.1", "10.0.0.2"])
        #expect(states.entry(for: "googlecast:one")?.authentication?.failure?.message == "judged 10.0.0.1")
        #expect(states.entry(for: "googlecast:two")?.result.isReachable == true)
    }

    @Test("a link-local IPv6 address is asked with its interface as the zone")
    func linkLocal() throws {
        let endpoint = try #require(
            ReceiverEndpoint(device: try Self.device("v6", address: "fe80::1", interface: "lab0")))
        #expect(endpoint.host == "fe80::1%lab0")
        #expect(
            ReceiverEndpoint(device: try Self.device("v4", address: "10.0.0.7", port: 8100))
                == ReceiverEndpoint(host: "10.0.0.7", port: 8100))
    }

    @Test("the store holds at most its capacity and counts what it could not hold")
    func capacity() {
        let states = ReceiverStates(capacity: 2)
        let result = ReceiverProbeResult(host: "h", port: 8009)
        #expect(states.record(result, for: "a") && states.record(result, for: "b"))
        #expect(!states.record(result, for: "c"))
        #expect(states.record(result, for: "a"))
        #expect(states.count == 2 && states.dropped == 1)
        states.forget("a")
        #expect(states.record(result, for: "c"))
    }
}
