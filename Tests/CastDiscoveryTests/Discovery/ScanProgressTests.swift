import CastDiscovery
import Testing

@Suite("ScanProgress: the completion rule")
struct ScanProgressTests {
    static let base = "_googlecast._tcp"
    static let sub = "_233637DE._sub._googlecast._tcp"
    static let t0 = ContinuousClock.now
    static let round = Duration.milliseconds(225)

    static func at(_ ms: Int) -> ContinuousClock.Instant { t0 + .milliseconds(ms) }

    static func key(_ name: String) -> ServiceKey { ServiceKey(name: name, type: .googleCast, domain: "local") }

    static func copy(_ name: String, _ family: ServiceAddress.Family = .ipv4) -> ServiceCopyKey {
        ServiceCopyKey(service: key(name), interfaceIndex: 2, transport: family)
    }

    static func found(_ name: String, _ browses: Set<String> = [base]) -> BackendEvent {
        .found(
            DiscoveredService(
                service: ResolvedService(instanceName: name, hostName: "x.local", port: 8009, addresses: [], txt: []),
                browseTypes: browses))
    }

    /// Feeds `(milliseconds, event)` pairs and returns the status after each.
    static func statuses(_ browseTypes: [String], _ events: [(Int, BackendEvent)]) -> [ScanProgress.Status] {
        var progress = ScanProgress(browseTypes: browseTypes, round: round, start: t0)
        return events.map { progress.record($0.1, at: at($0.0)).status }
    }

    @Test("warm daemon: a delivered cache settles one round after the browse began")
    func warm() {
        var progress = ScanProgress(browseTypes: [Self.base], round: Self.round, start: Self.t0)
        _ = progress.record(.browseStarted(browseType: Self.base), at: Self.at(10))
        _ = progress.record(.copyAdded(Self.copy("a"), browseType: Self.base), at: Self.at(12))
        _ = progress.record(.resolvesPending(1), at: Self.at(12))
        // The round's end is known; a pending resolve only keeps the browse from settling then.
        #expect(
            progress.record(.cacheExhausted(browseType: Self.base), at: Self.at(13)).status
                == .waitingUntil(Self.at(237)))
        #expect(progress.record(.resolvesPending(0), at: Self.at(15)).status == .waitingUntil(Self.at(237)))
        #expect(progress.status(at: Self.at(236)).status == .waitingUntil(Self.at(237)))
        let done = progress.status(at: Self.at(237))
        #expect(done.status == .complete)
        #expect(
            done.settled == [
                BrowseSettlement(
                    browseType: Self.base, reason: .quietRound, after: .milliseconds(237),
                    cacheDeliveredAfter: .milliseconds(13),
                    services: 1, servicesFromCache: 1)
            ])
        #expect(progress.isComplete)
    }

    @Test("the miss of issue 12: a known service new to the subtype browse restarts its round")
    func knownServiceNewToSubtype() {
        var progress = ScanProgress(browseTypes: [Self.base, Self.sub], round: Self.round, start: Self.t0)
        for type in [Self.base, Self.sub] { _ = progress.record(.browseStarted(browseType: type), at: Self.at(0)) }
        // Both devices come from the base browse's cache, device a from the subtype's cache.
        _ = progress.record(.copyAdded(Self.copy("a"), browseType: Self.base), at: Self.at(2))
        _ = progress.record(.copyAdded(Self.copy("b"), browseType: Self.base), at: Self.at(2))
        _ = progress.record(.copyAdded(Self.copy("a"), browseType: Self.sub), at: Self.at(3))
        _ = progress.record(.cacheExhausted(browseType: Self.base), at: Self.at(3))
        _ = progress.record(.cacheExhausted(browseType: Self.sub), at: Self.at(3))
        // Device b answers the daemon's subtype query at 200 ms: news for the subtype browse.
        #expect(progress.status(at: Self.at(199)).status == .waitingUntil(Self.at(227)))
        #expect(
            progress.record(.copyAdded(Self.copy("b"), browseType: Self.sub), at: Self.at(200)).status
                == .waitingUntil(Self.at(227)))
        let base = progress.status(at: Self.at(227))
        #expect(base.status == .waitingUntil(Self.at(425)))
        #expect(base.settled.map(\.browseType) == [Self.base])
        #expect(progress.status(at: Self.at(424)).status != .complete)
        #expect(progress.status(at: Self.at(425)).status == .complete)
        #expect(progress.settlements.map(\.reason) == [.quietRound, .quietRound])
        #expect(progress.settlements.map(\.after) == [.milliseconds(227), .milliseconds(425)])
    }

    @Test("cold daemon: an empty cache, then answers; each answer restarts the round, all-for-now settles at once")
    func cold() {
        let result = Self.statuses(
            [Self.base],
            [
                (0, .browseStarted(browseType: Self.base)), (1, .cacheExhausted(browseType: Self.base)),
                (150, .copyAdded(Self.copy("a"), browseType: Self.base)), (150, .resolvesPending(1)),
                (152, Self.found("a")), (152, .resolvesPending(0)),
                (300, .copyAdded(Self.copy("b"), browseType: Self.base)), (300, .resolvesPending(1)),
                (1000, .allForNow(browseType: Self.base)), (1001, .resolvesPending(0)),
            ])
        // The found of a copy already added is no news.
        #expect(
            result == [
                .waiting, .waitingUntil(Self.at(225)), .waitingUntil(Self.at(375)), .waitingUntil(Self.at(375)),
                .waitingUntil(Self.at(375)), .waitingUntil(Self.at(375)), .waitingUntil(Self.at(525)),
                .waitingUntil(Self.at(525)),
                .waiting, .complete,
            ])
    }

    @Test("no browse settles before its cache is delivered, nor while a resolve is pending")
    func blockers() {
        let result = Self.statuses(
            [Self.base],
            [
                (0, .browseStarted(browseType: Self.base)), (5, .resolvesPending(1)),
                (5, .cacheExhausted(browseType: Self.base)),
                (900, .resolvesPending(0)),
            ])
        #expect(result == [.waiting, .waiting, .waitingUntil(Self.at(225)), .complete])
    }

    @Test("a browse made again after the daemon came back starts a new round")
    func restartedBrowse() {
        let result = Self.statuses(
            [Self.base],
            [
                (0, .browseStarted(browseType: Self.base)), (1, .cacheExhausted(browseType: Self.base)),
                (100, .browseStarted(browseType: Self.base)), (101, .cacheExhausted(browseType: Self.base)),
            ])
        #expect(result == [.waiting, .waitingUntil(Self.at(225)), .waiting, .waitingUntil(Self.at(325))])
    }

    @Test("found services count as news for each browse reporting them (replays carry no copyAdded)")
    func foundIsNews() {
        let result = Self.statuses(
            [Self.base, Self.sub],
            [
                (0, .cacheExhausted(browseType: Self.base)), (0, .cacheExhausted(browseType: Self.sub)),
                (50, Self.found("a", [Self.base, Self.sub])),
                (100, .updated(Self.statusFound("a", [Self.base, Self.sub]))),
            ])
        #expect(
            result == [
                .waitingUntil(Self.at(225)), .waitingUntil(Self.at(225)), .waitingUntil(Self.at(275)),
                .waitingUntil(Self.at(275)),
            ])
    }

    static func statusFound(_ name: String, _ browses: Set<String>) -> DiscoveredService {
        DiscoveredService(
            service: ResolvedService(instanceName: name, hostName: "x.local", port: 8009, addresses: [], txt: ["st=1"]),
            browseTypes: browses)
    }

    @Test("settlements name the unsettled browses too, without a reason")
    func unsettled() {
        var progress = ScanProgress(browseTypes: [Self.base, Self.sub], round: Self.round, start: Self.t0)
        _ = progress.record(.allForNow(browseType: Self.sub), at: Self.at(1000))
        #expect(progress.settlements.map(\.reason) == [nil, .allForNow])
        #expect(!progress.isComplete)
    }

    // MARK: - A merged backend: decided here from the sources' steps

    static let querierAndDaemon = [
        ScanSource(name: "mdns", role: .asks, round: .milliseconds(200)),
        ScanSource(name: "avahi", role: .cache, round: .milliseconds(730)),
    ]

    static func step(
        _ source: String, _ milestone: SourceProgress.Milestone, _ services: Int = 0, _ type: String = base
    ) -> BackendEvent {
        .sourceProgress(
            SourceProgress(
                source: source, role: source == "avahi" ? .cache : .asks, browseType: type, milestone: milestone,
                services: services))
    }

    static func merged(_ sources: [ScanSource] = querierAndDaemon) -> ScanProgress {
        var progress = ScanProgress(browseTypes: [base], round: .milliseconds(730), sources: sources, start: t0)
        _ = progress.record(.browseStarted(browseType: base), at: at(0))
        return progress
    }

    @Test(
        "a merged backend: the querier's all-for-now settles the browse once the daemon's cache is in; each source's steps are kept, the daemon's cache count is the browse's"
    )
    func mergedSources() {
        var progress = Self.merged()
        _ = progress.record(Self.step("mdns", .browseStarted), at: Self.at(0))
        _ = progress.record(Self.step("avahi", .browseStarted), at: Self.at(1))
        _ = progress.record(.copyAdded(Self.copy("A"), browseType: Self.base), at: Self.at(5))
        _ = progress.record(.copyAdded(Self.copy("B"), browseType: Self.base), at: Self.at(8))
        let querierDone = progress.record(Self.step("mdns", .allForNow, 2), at: Self.at(150))
        #expect(querierDone.reached.isEmpty && querierDone.status != .complete, "the daemon's cache is not in yet")
        let update = progress.record(Self.step("avahi", .cacheExhausted, 1), at: Self.at(151))
        #expect(update.reached == [.cacheExhausted(browseType: Self.base), .allForNow(browseType: Self.base)])
        #expect(update.status == .complete)
        guard let browse = update.settled.first else { Issue.record("nothing settled"); return }
        #expect(browse.reason == .allForNow && browse.after == .milliseconds(151))
        #expect(browse.sources.map(\.source) == ["mdns", "avahi"])
        #expect(browse.sources[0].allForNowAfter == .milliseconds(150) && browse.sources[0].cacheDeliveredAfter == nil)
        #expect(browse.sources[1].cacheDeliveredAfter == .milliseconds(151) && browse.sources[1].servicesFromCache == 1)
        #expect(browse.servicesFromCache == 1, "the daemon's count, not the two the merge had reported by then")
        #expect(browse.services == 2)
        #expect(progress.record(Self.step("avahi", .allForNow, 2), at: Self.at(900)).reached.isEmpty, "each once")
    }

    @Test(
        "a merged backend: the daemon's cache alone does not end the browse while the querier asks; its own all-for-now is not waited for"
    )
    func cacheFirst() {
        var progress = Self.merged()
        #expect(
            progress.record(Self.step("avahi", .cacheExhausted), at: Self.at(10)).reached == [
                .cacheExhausted(browseType: Self.base)
            ])
        #expect(
            progress.record(Self.step("mdns", .allForNow), at: Self.at(300)).reached == [
                .allForNow(browseType: Self.base)
            ])
        #expect(progress.isComplete)
    }

    @Test(
        "a merged backend: a daemon whose round passed without its cache is not waited for, on the clock; a late cache is still reported, the browse is not all-for-now again"
    )
    func overdueDaemon() {
        var progress = Self.merged()
        let asked = progress.record(Self.step("mdns", .allForNow), at: Self.at(100))
        #expect(asked.reached.isEmpty && asked.nextCheck == Self.at(730), "the daemon's round ends at 730 ms")
        #expect(progress.status(at: Self.at(729)).reached.isEmpty)
        let over = progress.status(at: Self.at(730))
        #expect(over.reached == [.allForNow(browseType: Self.base)] && over.status == .complete)
        #expect(progress.settlements.first?.sources.last?.cacheWaitOverAfter == .milliseconds(730))
        let late = progress.record(Self.step("avahi", .cacheExhausted), at: Self.at(900))
        #expect(late.reached == [.cacheExhausted(browseType: Self.base)])

        var timely = Self.merged()
        _ = timely.record(Self.step("avahi", .cacheExhausted), at: Self.at(10))
        #expect(timely.status(at: Self.at(800)).reached.isEmpty, "the querier is still asking")
        #expect(timely.settlements.first?.sources.last?.cacheWaitOverAfter == nil, "delivered in time: not marked")
    }

    @Test("a merged backend: a daemon that went away, or a source that ended, is not waited for")
    func goneSources() {
        var progress = Self.merged()
        _ = progress.record(Self.step("mdns", .allForNow), at: Self.at(100))
        #expect(
            progress.record(Self.step("avahi", .absent), at: Self.at(120)).reached
                == [.cacheExhausted(browseType: Self.base), .allForNow(browseType: Self.base)])

        var asking = Self.merged([
            ScanSource(name: "mdns", role: .asks, round: .milliseconds(200)),
            ScanSource(name: "hosts", role: .asks, round: .milliseconds(300)),
        ])
        _ = asking.record(Self.step("hosts", .allForNow), at: Self.at(50))
        #expect(asking.status(at: Self.at(10_000)).reached.isEmpty, "no round ends an asking source's wait")
        #expect(
            asking.record(Self.step("mdns", .absent), at: Self.at(10_001)).reached
                == [.cacheExhausted(browseType: Self.base), .allForNow(browseType: Self.base)])
    }

    @Test(
        "a merged backend: settled by a quiet round, the browse still gets its all-for-now when the querier says it, after the scan completed"
    )
    func allForNowAfterCompletion() {
        var progress = Self.merged()
        _ = progress.record(.copyAdded(Self.copy("A"), browseType: Self.base), at: Self.at(5))
        #expect(
            progress.record(Self.step("avahi", .cacheExhausted, 1), at: Self.at(6)).reached == [
                .cacheExhausted(browseType: Self.base)
            ])
        let quiet = progress.status(at: Self.at(735))
        #expect(quiet.status == .complete && quiet.settled.map(\.reason) == [.quietRound])
        let late = progress.record(Self.step("mdns", .allForNow, 1), at: Self.at(1_000))
        #expect(late.reached == [.allForNow(browseType: Self.base)] && late.settled.isEmpty)
        #expect(progress.settlements.first?.reason == .quietRound, "what settled it stays")
    }
}
