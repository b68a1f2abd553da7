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

    /// The merged events of `events`, without the per-source steps.
    static func merged(_ events: [BackendEvent]) -> [BackendEvent] {
        events.filter { if case .sourceProgress = $0 { false } else { true } }
    }

    /// The querier beside a daemon, its browse started and, with `querierDone`, all-for-now.
    static func besideStarted(querierDone: Bool) -> BackendMerger {
        var merger = beside()
        _ = merger.take(.browseStarted(browseType: type), from: 0)
        if querierDone { _ = merger.take(.allForNow(browseType: type), from: 0) }
        return merger
    }

    static func copy(_ name: String, interface: Int32 = 2) -> ServiceCopyKey {
        ServiceCopyKey(service: ServiceKey(name: name, type: .googleCast, domain: "local"), interfaceIndex: interface, transport: .ipv4)
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

    @Test("all-for-now and cache-exhausted once every source said so; pending resolves summed")
    func browses() {
        var merger = Self.merger()
        let type = DiscoveryCriteria.serviceType
        #expect(Self.merged(merger.take(.browseStarted(browseType: type), from: 0)) == [.browseStarted(browseType: type)])
        #expect(Self.merged(merger.take(.browseStarted(browseType: type), from: 1)).isEmpty)
        #expect(Self.merged(merger.take(.allForNow(browseType: type), from: 1)).isEmpty)
        #expect(Self.merged(merger.take(.allForNow(browseType: type), from: 0)).contains(.allForNow(browseType: type)))
        #expect(Self.merged(merger.take(.allForNow(browseType: type), from: 0)).isEmpty, "once")
        #expect(merger.take(.resolvesPending(2), from: 0) == [.resolvesPending(2)])
        #expect(merger.take(.resolvesPending(1), from: 1) == [.resolvesPending(3)])
        #expect(!merger.end(0).done && merger.end(1).done)
    }

    @Test("a source that ends waits for nothing: its unfinished browses finish for it, its pending resolves go")
    func endedSource() {
        var merger = Self.merger()
        let type = DiscoveryCriteria.serviceType
        _ = merger.take(.browseStarted(browseType: type), from: 0)
        _ = merger.take(.resolvesPending(2), from: 0)
        #expect(Self.merged(merger.take(.allForNow(browseType: type), from: 1)).isEmpty)
        let ended = merger.end(0)
        #expect(!ended.done)
        #expect(ended.events.contains(.allForNow(browseType: type)))
        #expect(ended.events.last == .resolvesPending(0))
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

    @Test("beside a daemon: all-for-now when the querier said so and the daemon delivered its cache, not the daemon's all-for-now")
    func besideDaemon() {
        var merger = Self.beside()
        let type = Self.type
        _ = merger.take(.browseStarted(browseType: type), from: 0)
        _ = merger.take(.browseStarted(browseType: type), from: 1)
        #expect(!Self.merged(merger.take(.allForNow(browseType: type), from: 0)).contains(.allForNow(browseType: type)),
                "the daemon's cache is not in yet")
        let delivered = Self.merged(merger.take(.cacheExhausted(browseType: type), from: 1))
        #expect(delivered == [.cacheExhausted(browseType: type), .allForNow(browseType: type)])
        #expect(Self.merged(merger.take(.allForNow(browseType: type), from: 1)).isEmpty, "the daemon's own all-for-now adds nothing")

        var early = Self.besideStarted(querierDone: false)
        #expect(Self.merged(early.take(.cacheExhausted(browseType: type), from: 1)) == [.cacheExhausted(browseType: type)],
                "the cache alone does not end the browse: the querier is still asking")
        #expect(Self.merged(early.take(.allForNow(browseType: type), from: 0)) == [.allForNow(browseType: type)])
    }

    @Test("a daemon that went away is not waited for")
    func absentDaemon() {
        var merger = Self.besideStarted(querierDone: true)
        let type = Self.type
        let lost = merger.take(.stateChanged(.daemonLost), from: 1)
        #expect(Self.merged(lost).contains(.allForNow(browseType: type)))
        #expect(lost.contains(.sourceProgress(SourceProgress(
            source: "avahi", role: .cache, browseType: type, milestone: .absent, services: 0))))
        #expect(!lost.contains(.stateChanged(.daemonLost)), "the querier's state is the merge's")
    }

    @Test("the daemon's pending resolves count only for services no source has resolved")
    func daemonPending() {
        var merger = Self.beside()
        let tv = Self.service("TV", "10.0.0.2"), radio = Self.service("Radio", "10.0.0.3")
        _ = merger.take(.found(tv), from: 0)
        #expect(merger.take(.copyAdded(Self.copy("TV"), browseType: Self.type), from: 1).filter {
            if case .resolvesPending = $0 { true } else { false } }.isEmpty)
        #expect(merger.take(.resolvesPending(1), from: 1) == [.resolvesPending(0)], "resolving what the querier has holds nothing up")
        _ = merger.take(.copyAdded(Self.copy("Radio"), browseType: Self.type), from: 1)
        #expect(merger.take(.resolvesPending(2), from: 1).isEmpty, "still 1: the querier missed Radio, so the daemon's resolve is waited for")
        #expect(merger.take(.found(radio), from: 1).contains(.resolvesPending(0)), "resolved by the daemon")
    }

    @Test("a daemon's resolve of a service the querier resolves later stops counting then")
    func daemonPendingOvertaken() {
        var merger = Self.beside()
        _ = merger.take(.copyAdded(Self.copy("TV"), browseType: Self.type), from: 1)
        #expect(merger.take(.resolvesPending(1), from: 1) == [.resolvesPending(1)])
        #expect(merger.take(.found(Self.service("TV", "10.0.0.2")), from: 0).contains(.resolvesPending(0)))
        #expect(merger.take(.copyAdded(Self.copy("Gone"), browseType: Self.type), from: 1).contains(.resolvesPending(1)))
        #expect(merger.take(.resolvesPending(2), from: 1).isEmpty, "one service nobody has resolved")
        let failed = merger.take(.resolveFailed(Self.copy("Gone").service, DiscoveryError(kind: .other, message: "timeout")), from: 1)
        #expect(failed.contains(.resolvesPending(0)), "a failed resolve is not waited for")
    }

    @Test("each source's steps are reported with its name, role and count")
    func sourceSteps() {
        var merger = Self.beside()
        let type = Self.type
        _ = merger.take(.copyAdded(Self.copy("TV"), browseType: type), from: 1)
        let events = merger.take(.cacheExhausted(browseType: type), from: 1)
        #expect(events.first == .sourceProgress(SourceProgress(
            source: "avahi", role: .cache, browseType: type, milestone: .cacheExhausted, services: 1)))
    }

    @Test("a daemon whose round passed without its cache is not waited for; one that delivered in time is not marked")
    func overdueDaemon() {
        var merger = Self.besideStarted(querierDone: true)
        let type = Self.type
        let over = merger.cacheWaitOver(1)
        #expect(Self.merged(over) == [.allForNow(browseType: type)])
        #expect(over.contains(.sourceProgress(SourceProgress(
            source: "avahi", role: .cache, browseType: type, milestone: .cacheWaitOver, services: 0))))
        #expect(merger.cacheWaitOver(1).isEmpty, "once")
        #expect(Self.merged(merger.take(.cacheExhausted(browseType: type), from: 1)) == [.cacheExhausted(browseType: type)],
                "the late cache is still reported, the browse is not all-for-now again")

        var timely = Self.besideStarted(querierDone: false)
        _ = timely.take(.cacheExhausted(browseType: type), from: 1)
        #expect(timely.cacheWaitOver(1).isEmpty)
        #expect(Self.merged(timely.take(.allForNow(browseType: type), from: 0)) == [.allForNow(browseType: type)])
        var asking = Self.merger()
        _ = asking.take(.browseStarted(browseType: type), from: 0)
        #expect(asking.cacheWaitOver(1).isEmpty, "only a cache source's wait ends this way")
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

    @Test("a merged scan beside a daemon that never delivers its cache completes once the daemon's round has passed")
    func silentDaemonScan() async throws {
        let merged = MergedBackend([
            MergedBackend.Source("mdns", PromptBackend(), role: .asks),
            MergedBackend.Source("avahi", SilentBackend(queryRound: .milliseconds(200)), role: .cache),
        ])
        let clock = ContinuousClock()
        let start = clock.now
        var allForNowAt: Duration?
        for await event in try merged.events(browsing: [Self.type]) {
            if case .allForNow = event {
                allForNowAt = clock.now - start
                break
            }
        }
        let elapsed = try #require(allForNowAt)
        // Not before the round; the upper bound only tells an all-for-now that never came, far
        // above the 200 ms: a full parallel run on a loaded machine starved this task for minutes.
        #expect(elapsed >= .milliseconds(200) && elapsed < .seconds(600), "\(elapsed)")
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
        let merged = MergedBackend([MergedBackend.Source("mdns", mdns), MergedBackend.Source("avahi", avahi, role: .cache)])
        let stream = try merged.events(browsing: [Self.type])
        #expect(await mdns.waitUntilRead(), "the merge read the querier")
        #expect(await avahi.waitUntilRead(), "the merge read the daemon")
        return await Self.readAll(stream)
    }

    @Test("a stalled consumer: two sources send 10,000 updates each for the same 10 devices while nobody reads; then every device's final merged state, the folds counted in the statistics")
    func stalledConsumer() async throws {
        let events = try await Self.readAfterStall(querier: Self.updates(versions: 1_000, net: 0), daemon: Self.updates(versions: 1_000, net: 1))

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
        #expect(events.contains(.allForNow(browseType: Self.type)))
        // Bounded: what waited is the buffer's 8,192 and one entry per device, count and step.
        #expect(events.count < BackendEventBuffer.defaultCapacity + 40, "\(events.count) events waited")
        let counts = events.compactMap { if case .statistics(let counts) = $0 { counts } else { nil } }
        #expect((counts.last?.coalescedEvents ?? 0) > 1_000, "the merged events folded are counted: \(counts)")
    }

    @Test("a start-up of 500 devices through the querier beside a daemon, eight events each: nothing folds while nobody reads")
    func startupOf500() async throws {
        let events = try await Self.readAfterStall(querier: StartupScript.startup(devices: 500), daemon: StartupScript.startup(devices: 500))
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
