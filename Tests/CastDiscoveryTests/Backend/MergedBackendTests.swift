@testable import CastDiscovery
import Testing

@Suite("MergedBackend")
struct MergedBackendTests {
    static let type = DiscoveryCriteria.serviceType

    /// Two sources that both ask (the multicast backend and the known hosts).
    static func merger() -> BackendMerger {
        BackendMerger(sources: [("mdns", .asks), ("hosts", .asks)])
    }

    /// The querier beside a daemon read for its cache.
    static func beside() -> BackendMerger {
        BackendMerger(sources: [("mdns", .asks), ("avahi", .cache)])
    }

    /// The querier beside a daemon, its browse started and, with `querierDone`, all-for-now.
    static func besideStarted(querierDone: Bool) -> BackendMerger {
        var merger = beside()
        _ = merger.take(.browseStarted(browseType: type), from: 0)
        if querierDone { _ = merger.take(.allForNow(browseType: type), from: 0) }
        return merger
    }

    static func copy(_ name: String, interface: Int32 = 2) -> ServiceCopyKey {
        ServiceCopyKey(
            service: ServiceKey(name: name, type: .googleCast, domain: "local"), interfaceIndex: interface,
            transport: .ipv4)
    }
    static func service(_ name: String, _ address: String, knownHost: String? = nil) -> DiscoveredService {
        DiscoveredService(
            service: ResolvedService(
                instanceName: name, hostName: "h.local", port: 8009, addresses: [ServiceAddress(address)!],
                txt: TXTRecord(strings: [Array("id=1".utf8)]), knownHost: knownHost),
            browseTypes: [DiscoveryCriteria.serviceType])
    }

    @Test("one service however many sources see it; removed when the last one lets it go")
    func oneService() {
        var merger = Self.merger()
        let multicast = Self.service("TV", "10.0.0.2")
        let host = Self.service("TV", "10.0.0.2", knownHost: "10.0.0.2")
        #expect(merger.take(.found(multicast), from: 0) == [.found(multicast)])
        let both = merger.take(.found(host), from: 1)
        guard case .updated(let merged)? = both.first else { Issue.record("\(both)"); return }
        #expect(merged.service.knownHost == "10.0.0.2" && merged.service.addresses.count == 1)
        #expect(merger.take(.removed(multicast), from: 0).isEmpty, "still seen by the host, the same: no event")
        #expect(merger.take(.removed(host), from: 1) == [.removed(host)])
    }

    /// A step of the source `source` for the base type.
    static func step(
        _ source: (name: String, role: MergedBackend.Role), _ milestone: SourceProgress.Milestone, services: Int = 0
    ) -> BackendEvent {
        .sourceProgress(
            SourceProgress(
                source: source.name, role: source.role, browseType: type, milestone: milestone, services: services))
    }

    @Test(
        "each source's all-for-now and cache delivery pass as its steps, never as the merge's own; the browse starts once; pending resolves summed"
    )
    func browses() {
        var merger = Self.merger()
        let type = DiscoveryCriteria.serviceType
        #expect(
            merger.take(.browseStarted(browseType: type), from: 0)
                == [.browseStarted(browseType: type), Self.step(("mdns", .asks), .browseStarted)])
        #expect(merger.take(.browseStarted(browseType: type), from: 1) == [Self.step(("hosts", .asks), .browseStarted)])
        #expect(merger.take(.allForNow(browseType: type), from: 1) == [Self.step(("hosts", .asks), .allForNow)])
        #expect(merger.take(.allForNow(browseType: type), from: 0) == [Self.step(("mdns", .asks), .allForNow)])
        #expect(
            merger.take(.cacheExhausted(browseType: type), from: 0) == [Self.step(("mdns", .asks), .cacheExhausted)])
        #expect(merger.take(.resolvesPending(2), from: 0) == [.resolvesPending(2)])
        #expect(merger.take(.resolvesPending(1), from: 1) == [.resolvesPending(3)])
        #expect(!merger.end(0).done && merger.end(1).done)
    }

    @Test("a source that ends is gone from each browse, also from those started after; its pending resolves go")
    func endedSource() {
        var merger = Self.merger()
        let type = DiscoveryCriteria.serviceType
        _ = merger.take(.browseStarted(browseType: type), from: 0)
        _ = merger.take(.resolvesPending(2), from: 0)
        let ended = merger.end(0)
        #expect(!ended.done)
        #expect(ended.events == [Self.step(("mdns", .asks), .absent), .resolvesPending(0)])
        let other = "_8E6C866D._sub._googlecast._tcp"
        let started = merger.take(.browseStarted(browseType: other), from: 1)
        #expect(
            started.contains(
                .sourceProgress(
                    SourceProgress(
                        source: "mdns", role: .asks, browseType: other, milestone: .absent, services: 0))))
    }

    @Test("the same address from two sources is listed once, with the multicast one's interface")
    func addresses() {
        var merger = Self.merger()
        var multicast = Self.service("TV", "10.0.0.2")
        multicast.service.addresses = [ServiceAddress("10.0.0.2", interfaceName: "eth0", interfaceIndex: 2)!]
        _ = merger.take(.found(multicast), from: 0)
        let events = merger.take(.found(Self.service("TV", "10.0.0.2", knownHost: "tv")), from: 1)
        guard case .updated(let merged)? = events.first else { Issue.record("\(events)"); return }
        #expect(merged.service.addresses.map(\.interfaceName) == ["eth0"])
        #expect(merged.service.knownHost == "tv")
    }

    @Test("only the first source's states pass, and any source's failure")
    func states() {
        var merger = Self.merger()
        #expect(merger.take(.stateChanged(.running), from: 1).isEmpty)
        #expect(merger.take(.stateChanged(.daemonLost), from: 0) == [.stateChanged(.daemonLost)])
        let failure = DiscoveryError(kind: .other, message: "x")
        #expect(merger.take(.stateChanged(.failed(failure)), from: 1) == [.stateChanged(.failed(failure))])
    }

    @Test("a daemon read for its cache that fails is absent from each started browse, and the querier carries on")
    func failedDaemon() {
        var merger = Self.besideStarted(querierDone: false)
        let failure = DiscoveryError(kind: .discoveryServiceMissing, message: "avahi-daemon refused the client")
        let failed = merger.take(.stateChanged(.failed(failure)), from: 1)
        #expect(failed == [Self.step(("avahi", .cache), .absent)])
        #expect(merger.take(.stateChanged(.failed(failure)), from: 0) == [.stateChanged(.failed(failure))])
    }

    @Test("a daemon that went away is gone from each started browse; the querier's state is the merge's")
    func absentDaemon() {
        var merger = Self.besideStarted(querierDone: true)
        let lost = merger.take(.stateChanged(.daemonLost), from: 1)
        #expect(lost == [Self.step(("avahi", .cache), .absent)])
    }

    /// What `copy` resolves to: the service `name` at `address`.
    static func resolution(_ address: String) -> ServiceResolution {
        ServiceResolution(
            hostName: "h.local", port: 8009, address: ServiceAddress(address, interfaceName: "eth0", interfaceIndex: 2),
            txt: ["id=1"])
    }

    static func pending(_ events: [BackendEvent]) -> [Int] {
        events.compactMap { if case .resolvesPending(let count) = $0 { count } else { nil } }
    }

    @Test("the daemon's copies are pending only for services no source has resolved")
    func daemonPending() {
        var merger = Self.beside()
        _ = merger.take(.copyAdded(Self.copy("TV"), browseType: Self.type), from: 0)
        #expect(
            Self.pending(
                merger.take(.copyResolved(Self.copy("TV"), Self.resolution("10.0.0.2"), stillAsking: false), from: 0))
                == [0])
        #expect(
            Self.pending(merger.take(.copyAdded(Self.copy("TV"), browseType: Self.type), from: 1)).isEmpty,
            "resolving what the querier has holds nothing up")
        #expect(
            Self.pending(merger.take(.copyAdded(Self.copy("Radio"), browseType: Self.type), from: 1)) == [1],
            "the querier missed Radio, so the daemon's resolve is waited for")
        let radio = merger.take(
            .copyResolved(Self.copy("Radio"), Self.resolution("10.0.0.3"), stillAsking: false), from: 1)
        #expect(Self.pending(radio) == [0], "resolved by the daemon")
        #expect(radio.contains { if case .found(let s) = $0 { s.key == Self.copy("Radio").service } else { false } })
    }

    @Test("a daemon's resolve of a service the querier resolves later stops counting then")
    func daemonPendingOvertaken() {
        var merger = Self.beside()
        #expect(Self.pending(merger.take(.copyAdded(Self.copy("TV"), browseType: Self.type), from: 1)) == [1])
        _ = merger.take(.copyAdded(Self.copy("TV"), browseType: Self.type), from: 0)
        #expect(
            Self.pending(
                merger.take(.copyResolved(Self.copy("TV"), Self.resolution("10.0.0.2"), stillAsking: false), from: 0))
                == [0])
        #expect(Self.pending(merger.take(.copyAdded(Self.copy("Gone"), browseType: Self.type), from: 1)) == [1])
        let error = DiscoveryError(kind: .other, message: "timeout")
        let failed = merger.take(.copyFailed(Self.copy("Gone"), error), from: 1)
        #expect(failed.contains(.resolveFailed(Self.copy("Gone").service, error)))
        #expect(Self.pending(failed) == [0], "a failed resolve is not waited for")
    }

    @Test("each source's steps are reported with its name, role and count")
    func sourceSteps() {
        var merger = Self.beside()
        let type = Self.type
        _ = merger.take(.copyAdded(Self.copy("TV"), browseType: type), from: 1)
        let events = merger.take(.cacheExhausted(browseType: type), from: 1)
        #expect(
            events.first
                == .sourceProgress(
                    SourceProgress(
                        source: "avahi", role: .cache, browseType: type, milestone: .cacheExhausted, services: 1)))
    }

    /// A backend that starts its browse and then says nothing: a daemon that never delivers.
    struct SilentBackend: DiscoveryBackend {
        var queryRound: Duration
        func events(for request: BrowseRequest) throws(DiscoveryError) -> AsyncStream<BackendEvent> {
            let (stream, continuation) = AsyncStream<BackendEvent>.makeStream()
            continuation.yield(.stateChanged(.running))
            for type in request.browseTypes { continuation.yield(.browseStarted(browseType: type)) }
            let keep = continuation
            continuation.onTermination = { _ in _ = keep }
            return stream
        }
    }

    /// A backend that starts its browse and says all-for-now at once.
    struct PromptBackend: DiscoveryBackend {
        func events(for request: BrowseRequest) throws(DiscoveryError) -> AsyncStream<BackendEvent> {
            let (stream, continuation) = AsyncStream<BackendEvent>.makeStream()
            continuation.yield(.stateChanged(.running))
            for type in request.browseTypes {
                continuation.yield(.browseStarted(browseType: type))
                continuation.yield(.allForNow(browseType: type))
            }
            let keep = continuation
            continuation.onTermination = { _ in _ = keep }
            return stream
        }
    }

    @Test(
        "a merged scan beside a daemon that never delivers its cache completes once the daemon's round has passed, on the scan's clock"
    )
    func silentDaemonScan() async throws {
        let merged = MergedBackend([
            MergedBackend.Source("mdns", PromptBackend(), role: .asks),
            MergedBackend.Source("avahi", SilentBackend(queryRound: .milliseconds(200)), role: .cache),
        ])
        let clock = ManualClock()
        let manager = DiscoveryManager(backend: merged, clock: clock)
        let scan = Task { try await manager.scan(timeout: .seconds(30)) }
        // The querier has said all-for-now: the scan waits for the daemon's round, then its own
        // time-out, both asleep on the clock.
        await clock.waitForSleepers(2)
        clock.advance(by: .milliseconds(199))
        #expect(!manager.isScanComplete, "the daemon's round has not passed")
        clock.advance(by: .milliseconds(1))
        let result = try await scan.value
        #expect(result.isComplete)
        #expect(result.elapsed == .milliseconds(200))
        let browse = try #require(result.browses.first)
        #expect(browse.reason == .allForNow && browse.after == .milliseconds(200))
        #expect(browse.sources.map(\.source) == ["mdns", "avahi"])
        #expect(
            browse.sources[1].cacheWaitOverAfter == .milliseconds(200) && browse.sources[1].cacheDeliveredAfter == nil)
    }

    /// A backend that notes in `log` when its browse is started, then says nothing.
    struct StartLogBackend: DiscoveryBackend {
        var name: String
        var log: StartLog
        func events(for request: BrowseRequest) throws(DiscoveryError) -> AsyncStream<BackendEvent> {
            log.started.withLock { $0.append(name) }
            let (stream, continuation) = AsyncStream<BackendEvent>.makeStream()
            let keep = continuation
            continuation.onTermination = { _ in _ = keep }
            return stream
        }
    }

    final class StartLog: Sendable {
        let started = LockedValue<[String]>([])
    }

    @Test("the daemons read for their cache are started before the sources that ask, each buffer in its source's place")
    func daemonsStartFirst() throws {
        let log = StartLog()
        let merged = MergedBackend([
            MergedBackend.Source("mdns", StartLogBackend(name: "mdns", log: log), role: .asks),
            MergedBackend.Source("avahi", StartLogBackend(name: "avahi", log: log), role: .cache),
            MergedBackend.Source("hosts", StartLogBackend(name: "hosts", log: log), role: .asks),
        ])
        let run = try merged.start(BrowseRequest(parsing: [Self.type]))
        defer { run.buffers.forEach { $0.letGo() } }
        #expect(log.started.withLock { $0 } == ["avahi", "mdns", "hosts"])
        #expect(run.buffers.count == 3)
        #expect(MergedBackend.startOrder(of: [.asks, .cache, .asks, .cache]) == [1, 3, 0, 2])
    }

    @Test("a due first report whose stack is behind is looked at again shortly, and goes once the stack has caught up")
    func dueReportWaitsOnItsStack() {
        typealias A = ServiceAggregatorTests
        var merger = BackendMerger(single: FirstReportWait(grace: .milliseconds(25)))
        _ = merger.take(.copyLimit(2), from: 0, at: A.at(0))
        merger.noteSource(0, readThrough: A.at(0))
        _ = merger.take(.copyAdded(A.copy(2, .ipv4), browseType: Self.type), from: 0, at: A.at(0))
        merger.noteSource(0, madeBy: A.at(1))
        _ = merger.take(
            .copyResolved(A.copy(2, .ipv4), A.resolution("10.0.0.2"), stillAsking: false), from: 0, at: A.at(2))
        #expect(merger.nextCheck(at: A.at(2)) == A.at(27), "the grace, in the merge's time")
        // Due, but the stack has read only up to 0 ms: looked at again shortly, not at once.
        #expect(A.found(merger.releaseDue(at: A.at(30))).isEmpty)
        #expect(merger.nextCheck(at: A.at(30)) == A.at(30) + ServiceAggregator.stackRecheck)
        // Caught up past the grace with nothing more: the report goes.
        let released = merger.caughtUp(0, readThrough: A.at(28), at: A.at(31))
        #expect(A.found(released).count == 1)
        #expect(merger.nextCheck(at: A.at(31)) == nil)
    }

    @Test("a merge of merges is one merge of all their sources")
    func flattened() {
        let inner = MergedBackend([
            MergedBackend.Source("mdns", PromptBackend(), role: .asks),
            MergedBackend.Source("avahi", SilentBackend(queryRound: .milliseconds(730)), role: .cache),
        ])
        let outer = MergedBackend([
            MergedBackend.Source("default", inner), MergedBackend.Source("hosts", PromptBackend()),
        ])
        #expect(
            outer.scanSources == [
                ScanSource(name: "mdns", role: .asks, round: .milliseconds(730)),
                ScanSource(name: "avahi", role: .cache, round: .milliseconds(730)),
                ScanSource(name: "hosts", role: .asks, round: .milliseconds(730)),
            ])
    }

    // MARK: - A consumer that falls behind

    static func readAll(_ stream: AsyncStream<BackendEvent>) async -> [BackendEvent] {
        var events: [BackendEvent] = []
        for await event in stream { events.append(event) }
        return events
    }

    /// Ten devices found, then updated `versions` times each, on IPv4 net 10.`net`.
    static func updates(versions: Int, net: UInt8) -> [BackendEvent] {
        var events: [BackendEvent] = [.stateChanged(.running), .browseStarted(browseType: type)]
        for version in 0..<versions {
            for index in 0..<10 {
                let service = StartupScript.service(index, version: version, ipv4Net: net)
                events.append(version == 0 ? .found(service) : .updated(service))
            }
        }
        return events + [.cacheExhausted(browseType: type), .allForNow(browseType: type)]
    }

    /// Merges a querier sending `querier` and a daemon's cache sending `daemon` while nobody
    /// reads the merge, until it has taken every event of both; then everything it holds.
    static func readAfterStall(querier: [BackendEvent], daemon: [BackendEvent]) async throws -> [BackendEvent] {
        let mdns = BufferedTestBackend(querier)
        let avahi = BufferedTestBackend(daemon)
        let merged = MergedBackend([
            MergedBackend.Source("mdns", mdns), MergedBackend.Source("avahi", avahi, role: .cache),
        ])
        let stream = try merged.events(browsing: [Self.type])
        #expect(await mdns.waitUntilRead(), "the merge read the querier")
        #expect(await avahi.waitUntilRead(), "the merge read the daemon")
        return await Self.readAll(stream)
    }

    @Test(
        "a stalled consumer: two sources send 10,000 updates each for the same 10 devices while nobody reads; then every device's final merged state, the folds counted in the statistics"
    )
    func stalledConsumer() async throws {
        let events = try await Self.readAfterStall(
            querier: Self.updates(versions: 1_000, net: 0), daemon: Self.updates(versions: 1_000, net: 1))

        var known: [ServiceKey: DiscoveredService] = [:]
        StartupScript.mirror(events, into: &known)
        for index in 0..<10 {
            // The final state: the querier's last version, with the daemon's address added.
            var expected = Self.merger()
            _ = expected.take(.found(StartupScript.service(index, version: 999, ipv4Net: 0)), from: 0)
            let both = expected.take(.found(StartupScript.service(index, version: 999, ipv4Net: 1)), from: 1)
            guard case .updated(let final)? = both.first else { Issue.record("\(both)"); return }
            #expect(known[StartupScript.key(index)] == final, "device \(index)")
        }
        #expect(known.count == 10)
        #expect(
            events.contains(
                .sourceProgress(
                    SourceProgress(
                        source: "avahi", role: .cache, browseType: Self.type, milestone: .allForNow, services: 10))))
        // Bounded: what waited is the buffer's 8,192 and one entry per device, count and step.
        #expect(events.count < BackendEventBuffer.defaultCapacity + 40, "\(events.count) events waited")
        let counts = events.compactMap { if case .statistics(let counts) = $0 { counts } else { nil } }
        #expect((counts.last?.coalescedEvents ?? 0) > 1_000, "the merged events folded are counted: \(counts)")
    }

    @Test(
        "a start-up of 500 devices through the querier beside a daemon, four events each: nothing folds while nobody reads"
    )
    func startupOf500() async throws {
        let events = try await Self.readAfterStall(
            querier: StartupScript.startup(devices: 500), daemon: StartupScript.startup(devices: 500))
        var known: [ServiceKey: DiscoveredService] = [:]
        StartupScript.mirror(events, into: &known)
        #expect(known.count == 500)
        #expect(known.values.allSatisfy { $0.service.addresses.count == 2 })
        #expect(!events.contains { if case .statistics = $0 { true } else { false } }, "no statistics: nothing folded")
        // Measured: the figure the buffer's capacity is set against.
        #expect(events.count < BackendEventBuffer.defaultCapacity, "\(events.count) merged events for 500 devices")
        print("merged start-up of 500 devices: \(events.count) events")
    }
}
