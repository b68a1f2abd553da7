@testable import CastDiscovery
import Testing

@Suite("ServiceAggregator")
struct ServiceAggregatorTests {
    static let base = "_googlecast._tcp"
    static let youTube = "_233637DE._sub._googlecast._tcp"
    static let key = ServiceKey(name: "Chromecast-1", type: .googleCast, domain: "local")
    static let t0 = ContinuousClock.now

    static func at(_ ms: Int) -> ContinuousClock.Instant { t0 + .milliseconds(ms) }

    static func copy(_ interface: Int32 = 2, _ transport: ServiceAddress.Family = .ipv4, key: ServiceKey = key)
        -> ServiceCopyKey
    {
        ServiceCopyKey(service: key, interfaceIndex: interface, transport: transport)
    }

    static func resolution(
        _ address: String, host: String = "cc.local", port: UInt16 = 8009, txt: TXTRecord = ["id=1", "fn=TV"],
        interface: Int32 = 2
    ) -> ServiceResolution {
        ServiceResolution(
            hostName: host, port: port,
            address: ServiceAddress(address, interfaceName: "lab0", interfaceIndex: interface)!, txt: txt)
    }

    static func found(_ events: [BackendEvent]) -> [DiscoveredService] {
        events.compactMap { if case .found(let service) = $0 { service } else { nil } }
    }

    @Test("a copy new to a browse is news for that browse, once")
    func copyAdded() {
        var aggregator = ServiceAggregator()
        #expect(
            aggregator.add(Self.copy(2, .ipv4), browseType: Self.base).events == [
                .copyAdded(Self.copy(2, .ipv4), browseType: Self.base)
            ])
        #expect(aggregator.add(Self.copy(2, .ipv4), browseType: Self.base).events.isEmpty)
        // The same copy from a subtype browse: no new resolver, but news for the subtype browse.
        let sub = aggregator.add(Self.copy(2, .ipv4), browseType: Self.youTube)
        #expect(!sub.isNewCopy)
        #expect(sub.events == [.copyAdded(Self.copy(2, .ipv4), browseType: Self.youTube)])
    }

    @Test("found on the first resolution when no other copy is pending; a later copy only adds an address")
    func foundOnce() throws {
        var aggregator = ServiceAggregator()
        let first = aggregator.add(Self.copy(2, .ipv4), browseType: Self.base, at: Self.at(0))
        #expect(first.isNewCopy)
        #expect(aggregator.pendingResolves == 1)
        let found = Self.found(aggregator.resolved(Self.copy(2, .ipv4), Self.resolution("10.0.0.2"), at: Self.at(5)))
        #expect(found.map { $0.service.addresses.map(\.address) } == [["10.0.0.2"]])
        #expect(found.first?.browseTypes == [Self.base])

        _ = aggregator.add(Self.copy(2, .ipv6), browseType: Self.base, at: Self.at(500))
        let updated = aggregator.resolved(Self.copy(2, .ipv6), Self.resolution("fd00::2"), at: Self.at(501))
        guard case .updated(let merged)? = updated.first, updated.count == 1 else {
            Issue.record("expected one update, got \(updated)"); return
        }
        #expect(merged.service.addresses.map(\.address) == ["10.0.0.2", "fd00::2"])
        #expect(aggregator.services.count == 1)
        #expect(aggregator.pendingResolves == 0)
    }

    @Test("the first report waits for the instance's other copies: one found with IPv4 and IPv6 together")
    func coalescedFirstReport() {
        var aggregator = ServiceAggregator()
        _ = aggregator.add(Self.copy(2, .ipv6), browseType: Self.base, at: Self.at(0))
        _ = aggregator.add(Self.copy(2, .ipv4), browseType: Self.base, at: Self.at(0))
        // The IPv6 copy resolves first: held, the IPv4 copy is still resolving.
        #expect(aggregator.resolved(Self.copy(2, .ipv6), Self.resolution("fd00::2"), at: Self.at(3)).isEmpty)
        #expect(aggregator.services.isEmpty)
        #expect(aggregator.nextRelease == Self.at(3) + FirstReportWait.standardLongest)
        let found = Self.found(aggregator.resolved(Self.copy(2, .ipv4), Self.resolution("10.0.0.2"), at: Self.at(8)))
        #expect(found.map { $0.service.addresses.map(\.address) } == [["10.0.0.2", "fd00::2"]])
        #expect(aggregator.nextRelease == nil)
    }

    @Test("a stack's own hold replaces the default one")
    func ownHold() {
        var aggregator = ServiceAggregator(wait: FirstReportWait(grace: .milliseconds(50), longest: .seconds(2)))
        _ = aggregator.add(Self.copy(2, .ipv6), browseType: Self.base, at: Self.at(0))
        _ = aggregator.add(Self.copy(2, .ipv4), browseType: Self.base, at: Self.at(0))
        _ = aggregator.resolved(Self.copy(2, .ipv4), Self.resolution("10.0.0.2"), at: Self.at(2))
        #expect(aggregator.nextRelease == Self.at(2) + .seconds(2))
        #expect(aggregator.releaseHeld(at: Self.at(2) + FirstReportWait.standardLongest).isEmpty)
        let found = Self.found(aggregator.resolved(Self.copy(2, .ipv6), Self.resolution("fd00::2"), at: Self.at(900)))
        #expect(found.map { $0.service.addresses.map(\.address) } == [["10.0.0.2", "fd00::2"]])
    }

    @Test("a held first report is released after the hold even if a copy never resolves, and on failure at once")
    func heldReleased() {
        var aggregator = ServiceAggregator()
        _ = aggregator.add(Self.copy(2, .ipv6), browseType: Self.base, at: Self.at(0))
        _ = aggregator.add(Self.copy(2, .ipv4), browseType: Self.base, at: Self.at(0))
        _ = aggregator.resolved(Self.copy(2, .ipv4), Self.resolution("10.0.0.2"), at: Self.at(2))
        #expect(aggregator.releaseHeld(at: Self.at(100)).isEmpty)
        let released = Self.found(aggregator.releaseHeld(at: Self.at(2) + FirstReportWait.standardLongest))
        #expect(released.map { $0.service.addresses.map(\.address) } == [["10.0.0.2"]])

        let other = ServiceKey(name: "Other", type: .googleCast, domain: "local")
        _ = aggregator.add(Self.copy(2, .ipv4, key: other), browseType: Self.base, at: Self.at(200))
        _ = aggregator.add(Self.copy(2, .ipv6, key: other), browseType: Self.base, at: Self.at(200))
        #expect(
            aggregator.resolved(Self.copy(2, .ipv4, key: other), Self.resolution("10.0.0.3"), at: Self.at(201)).isEmpty)
        let error = DiscoveryError(kind: .daemonError, message: "timeout")
        let failed = aggregator.resolveFailed(Self.copy(2, .ipv6, key: other), error, at: Self.at(210))
        #expect(failed.first == .resolveFailed(other, error))
        #expect(Self.found(failed).count == 1)
    }

    @Test("a first report held for copies not heard of yet counts as a pending resolve until released")
    func heldCountsAsPending() {
        var aggregator = ServiceAggregator(wait: FirstReportWait(grace: .milliseconds(50)))
        aggregator.setCopyLimit(2)
        _ = aggregator.add(Self.copy(2, .ipv4), browseType: Self.base, at: Self.at(0))
        #expect(aggregator.pendingResolves == 1)
        let resolved = aggregator.resolved(Self.copy(2, .ipv4), Self.resolution("10.0.0.2"), at: Self.at(5))
        #expect(Self.found(resolved).isEmpty, "held for the other copy")
        #expect(aggregator.heldReports == 1)
        #expect(aggregator.pendingResolves == 1, "a scan ending now would miss the device")
        let released = aggregator.releaseHeld(at: Self.at(60))
        #expect(Self.found(released).count == 1)
        #expect(aggregator.pendingResolves == 0)
        #expect(aggregator.heldReports == 0)
    }

    @Test("a subtype browse joining or leaving updates the browses of a found service")
    func subtypeMembership() {
        var aggregator = ServiceAggregator()
        _ = aggregator.add(Self.copy(), browseType: Self.base)
        _ = aggregator.resolved(Self.copy(), Self.resolution("10.0.0.2"))
        let sub = aggregator.add(Self.copy(), browseType: Self.youTube)
        #expect(
            sub.events.last
                == .updated(
                    DiscoveredService(service: aggregator.services[0].service, browseTypes: [Self.base, Self.youTube])))
        let leave = aggregator.remove(Self.copy(), browseType: Self.youTube)
        #expect(!leave.isCopyGone)
        #expect(leave.events.count == 1)
        #expect(aggregator.services.first?.browseTypes == [Self.base])
    }

    @Test("removed only after the last copy of every browse goes, carrying the last state")
    func removal() {
        var aggregator = ServiceAggregator()
        for transport in [ServiceAddress.Family.ipv4, .ipv6] {
            _ = aggregator.add(Self.copy(2, transport), browseType: Self.base, at: Self.at(0))
        }
        _ = aggregator.resolved(Self.copy(2, .ipv4), Self.resolution("10.0.0.2"), at: Self.at(1))
        _ = aggregator.releaseHeld(at: Self.at(1000))
        let partial = aggregator.remove(Self.copy(2, .ipv4), browseType: Self.base)
        #expect(partial.isCopyGone)
        // The IPv4 copy's address leaves with it; the IPv6 copy never resolved.
        #expect(partial.events.count == 1)
        if case .removed(let last)? = partial.events.first {
            #expect(last.service.addresses.map(\.address) == ["10.0.0.2"])
        } else {
            Issue.record("expected removal, got \(partial.events)")
        }
        let rest = aggregator.remove(Self.copy(2, .ipv6), browseType: Self.base)
        #expect(rest.isCopyGone && rest.events.isEmpty)
        #expect(aggregator.services.isEmpty)
        #expect(aggregator.remove(Self.copy(2, .ipv6), browseType: Self.base).events.isEmpty)
    }

    @Test("an instance that goes while its first report is held is never reported")
    func goneWhileHeld() {
        var aggregator = ServiceAggregator()
        _ = aggregator.add(Self.copy(2, .ipv4), browseType: Self.base, at: Self.at(0))
        _ = aggregator.add(Self.copy(2, .ipv6), browseType: Self.base, at: Self.at(0))
        _ = aggregator.resolved(Self.copy(2, .ipv4), Self.resolution("10.0.0.2"), at: Self.at(1))
        #expect(aggregator.remove(Self.copy(2, .ipv4), browseType: Self.base).events.isEmpty)
        #expect(aggregator.remove(Self.copy(2, .ipv6), browseType: Self.base).events.isEmpty)
        #expect(aggregator.nextRelease == nil)
        #expect(aggregator.releaseHeld(at: Self.at(10_000)).isEmpty)
    }

    @Test("TXT, port and host changes follow the newest answer")
    func newestWins() {
        var aggregator = ServiceAggregator()
        _ = aggregator.add(Self.copy(2, .ipv4), browseType: Self.base)
        _ = aggregator.add(Self.copy(2, .ipv6), browseType: Self.base)
        _ = aggregator.resolved(Self.copy(2, .ipv4), Self.resolution("10.0.0.2", host: "leader-a.local", port: 32000))
        _ = aggregator.resolved(Self.copy(2, .ipv6), Self.resolution("fd00::2", host: "leader-a.local", port: 32000))
        let moved = aggregator.resolved(
            Self.copy(2, .ipv4),
            Self.resolution("10.0.0.9", host: "leader-b.local", port: 42000, txt: ["id=1", "fn=Moved"]))
        guard case .updated(let service)? = moved.first else { Issue.record("no update: \(moved)"); return }
        #expect(service.service.hostName == "leader-b.local")
        #expect(service.service.port == 42000)
        #expect(service.service.txt.string(forKey: "fn") == "Moved")
        // The stale IPv6 answer still names the old leader, so its address is not merged.
        #expect(service.service.addresses.map(\.address) == ["10.0.0.9"])
        let same = aggregator.resolved(
            Self.copy(2, .ipv4),
            Self.resolution("10.0.0.9", host: "leader-b.local", port: 42000, txt: ["id=1", "fn=Moved"]))
        #expect(same.isEmpty, "an unchanged answer is not an update")
    }

    @Test("removeAll reports every service once and forgets them")
    func removeAll() {
        var aggregator = ServiceAggregator()
        for name in ["a", "b", "c"] {
            let key = ServiceKey(name: name, type: .googleCast, domain: "local")
            _ = aggregator.add(Self.copy(key: key), browseType: Self.base)
            if name != "c" { _ = aggregator.resolved(Self.copy(key: key), Self.resolution("10.0.0.2")) }
        }
        let events = aggregator.removeAll()
        #expect(events.count == 2)
        #expect(aggregator.services.isEmpty && aggregator.pendingResolves == 0)
    }

    @Test("a failed resolve is reported and stops being pending")
    func failure() {
        var aggregator = ServiceAggregator()
        _ = aggregator.add(Self.copy(), browseType: Self.base)
        let error = DiscoveryError(kind: .daemonError, message: "timeout")
        #expect(aggregator.resolveFailed(Self.copy(), error) == [.resolveFailed(Self.key, error)])
        #expect(aggregator.pendingResolves == 0)
        #expect(
            aggregator.resolveFailed(Self.copy(key: ServiceKey(name: "x", type: .googleCast, domain: "local")), error)
                .isEmpty)
    }

    @Test("a daemon's copy of an instance another source resolved is not pending; its own are while none has")
    func cacheCopies() {
        var aggregator = ServiceAggregator(sources: [.init(role: .asks), .init(role: .cache)])
        _ = aggregator.add(Self.copy(), browseType: Self.base, source: 1, at: Self.at(0))
        _ = aggregator.add(Self.copy(2, .ipv6), browseType: Self.base, source: 1, at: Self.at(0))
        #expect(aggregator.pendingResolves == 2 && aggregator.pendingResolves(of: 1) == 2, "nobody resolved it yet")
        _ = aggregator.add(Self.copy(), browseType: Self.base, source: 0, at: Self.at(1))
        #expect(aggregator.pendingResolves(of: 0) == 1)
        let found = Self.found(aggregator.resolved(Self.copy(), Self.resolution("10.0.0.2"), source: 0, at: Self.at(2)))
        #expect(found.count == 1, "the daemon's copies still resolving do not hold the querier's report")
        #expect(aggregator.pendingResolves == 0, "the daemon need not resolve what the querier did")
        // The querier lets it go: the daemon's copies are pending again.
        _ = aggregator.remove(Self.copy(), browseType: Self.base, source: 0, at: Self.at(3))
        #expect(aggregator.pendingResolves == 2 && aggregator.services.isEmpty)
        aggregator.sourceEnded(1)
        #expect(aggregator.pendingResolves == 0, "an ended source's copies are not waited for")
    }

    @Test(
        "two sources' copies of one instance are one service: newest host, port and TXT, every address, removed with the last"
    )
    func sources() throws {
        var aggregator = ServiceAggregator(sources: [.init(), .init()])
        _ = aggregator.add(Self.copy(), browseType: Self.base, source: 0, at: Self.at(0))
        _ = aggregator.add(Self.copy(), browseType: Self.youTube, source: 1, at: Self.at(0))
        #expect(
            Self.found(aggregator.resolved(Self.copy(), Self.resolution("10.0.0.2"), source: 0, at: Self.at(1))).count
                == 1)
        let newer = Self.resolution("10.0.0.3", txt: ["id=1", "fn=Kitchen"])
        let updated = aggregator.resolved(Self.copy(), newer, source: 1, at: Self.at(2))
        guard case .updated(let merged)? = updated.last else {
            Issue.record("expected an update, got \(updated)"); return
        }
        #expect(merged.service.txt == newer.txt)
        #expect(merged.service.addresses.map(\.address) == ["10.0.0.2", "10.0.0.3"])
        #expect(merged.browseTypes == [Self.base, Self.youTube])
        #expect(
            aggregator.remove(Self.copy(), browseType: Self.base, source: 0, at: Self.at(3)).events.allSatisfy {
                if case .updated = $0 { true } else { false }
            })
        let last = aggregator.remove(Self.copy(), browseType: Self.youTube, source: 1, at: Self.at(4))
        #expect(last.isCopyGone && last.events.contains { if case .removed = $0 { true } else { false } })
    }

    @Test(
        "an address one stack reaches on two interfaces is listed per interface; another stack's same address once, the first stack's"
    )
    func addressesPerInterface() throws {
        var aggregator = ServiceAggregator(sources: [.init(), .init()])
        // Two interfaces on one link: the querier hears the device's IPv4 copy on each.
        for interface: Int32 in [2, 3] {
            _ = aggregator.add(Self.copy(interface), browseType: Self.base, source: 0, at: Self.at(0))
        }
        _ = aggregator.resolved(Self.copy(2), Self.resolution("10.0.0.2", interface: 2), source: 0, at: Self.at(1))
        let both = aggregator.resolved(
            Self.copy(3), Self.resolution("10.0.0.2", interface: 3), source: 0, at: Self.at(2))
        let merged = try #require(
            Self.found(both).first ?? both.compactMap { if case .updated(let s) = $0 { s } else { nil } }.last)
        #expect(merged.service.addresses.map(\.interfaceIndex) == [2, 3], "one address per interface it is reached on")
        // The daemon beside it reports the same address on interface 2: not listed again.
        _ = aggregator.add(Self.copy(2), browseType: Self.base, source: 1, at: Self.at(3))
        _ = aggregator.resolved(Self.copy(2), Self.resolution("10.0.0.2", interface: 2), source: 1, at: Self.at(4))
        let service = try #require(aggregator.services.first)
        #expect(service.service.addresses.map(\.address) == ["10.0.0.2", "10.0.0.2"])
        #expect(service.service.addresses.map(\.interfaceIndex) == [2, 3])
    }

    @Test("a stack that has all it will give does not cut short another's wait for its other copy")
    func lastWaitWins() throws {
        // The querier (25 ms grace) beside a daemon read for its cache (no grace), each with at
        // most two copies of an instance (IPv4 and IPv6 on one interface).
        var aggregator = ServiceAggregator(sources: [
            .init(wait: FirstReportWait(grace: .milliseconds(25))), .init(role: .cache),
        ])
        aggregator.setCopyLimit(2, of: 0)
        aggregator.setCopyLimit(2, of: 1)
        _ = aggregator.add(Self.copy(2, .ipv4), browseType: Self.base, source: 0, at: Self.at(0))
        #expect(
            aggregator.resolved(Self.copy(2, .ipv4), Self.resolution("10.0.0.2"), source: 0, at: Self.at(1)).isEmpty)
        #expect(aggregator.nextRelease == Self.at(1) + .milliseconds(25), "the querier's grace for its IPv6 copy")
        // The daemon's cache gives its IPv4 copy: the querier's grace still holds the report.
        _ = aggregator.add(Self.copy(2, .ipv4), browseType: Self.base, source: 1, at: Self.at(2))
        #expect(
            aggregator.resolved(Self.copy(2, .ipv4), Self.resolution("10.0.0.2"), source: 1, at: Self.at(3)).isEmpty)
        #expect(aggregator.releaseHeld(at: Self.at(3)).isEmpty)
        // The querier's IPv6 copy comes within its grace, and resolves: one report, both addresses.
        _ = aggregator.add(Self.copy(2, .ipv6), browseType: Self.base, source: 0, at: Self.at(10))
        #expect(aggregator.releaseHeld(at: Self.at(30)).isEmpty, "held while the IPv6 copy resolves")
        let found = Self.found(
            aggregator.resolved(Self.copy(2, .ipv6), Self.resolution("fd00::2"), source: 0, at: Self.at(40)))
        #expect(found.map { $0.service.addresses.map(\.address) } == [["10.0.0.2", "fd00::2"]])
    }

    /// A querier-like source: a 25 ms grace, two copies at most, and it says how far it has read.
    static func saysHowFarItRead() -> ServiceAggregator {
        var aggregator = ServiceAggregator(sources: [.init(wait: FirstReportWait(grace: .milliseconds(25)))])
        aggregator.setCopyLimit(2, of: 0)
        aggregator.noteSource(0, readThrough: Self.at(0))
        _ = aggregator.add(Self.copy(2, .ipv4), browseType: Self.base, at: Self.at(0))
        aggregator.noteSource(0, madeBy: Self.at(1))
        return aggregator
    }

    @Test("a grace is judged in the stack's time: a stack that has not read that far holds the report")
    func graceInTheStacksTime() {
        var aggregator = Self.saysHowFarItRead()
        #expect(aggregator.resolved(Self.copy(2, .ipv4), Self.resolution("10.0.0.2"), at: Self.at(2)).isEmpty)
        // The grace is over by the merge's clock, but the stack (descheduled) has read only up
        // to 10 ms: the IPv6 answer may be waiting in its socket.
        aggregator.noteSource(0, readThrough: Self.at(10))
        #expect(aggregator.releaseHeld(at: Self.at(60)).isEmpty)
        // It reads on, and the IPv6 copy was there: one report, both addresses.
        aggregator.noteSource(0, madeBy: Self.at(61))
        _ = aggregator.add(Self.copy(2, .ipv6), browseType: Self.base, at: Self.at(62))
        let found = Self.found(aggregator.resolved(Self.copy(2, .ipv6), Self.resolution("fd00::2"), at: Self.at(63)))
        #expect(found.map { $0.service.addresses.map(\.address) } == [["10.0.0.2", "fd00::2"]])
    }

    @Test("a stack that has read past its grace releases the report; one that never does, after a second")
    func graceReadOrGivenUp() {
        var caughtUp = Self.saysHowFarItRead()
        #expect(caughtUp.resolved(Self.copy(2, .ipv4), Self.resolution("10.0.0.2"), at: Self.at(2)).isEmpty)
        caughtUp.noteSource(0, readThrough: Self.at(27))
        #expect(
            Self.found(caughtUp.releaseHeld(at: Self.at(30))).count == 1,
            "read up to the end of its grace: nothing more came")

        var stalled = Self.saysHowFarItRead()
        #expect(stalled.resolved(Self.copy(2, .ipv4), Self.resolution("10.0.0.2"), at: Self.at(2)).isEmpty)
        #expect(stalled.releaseHeld(at: Self.at(2) + ServiceAggregator.stackBehindLimit - .milliseconds(1)).isEmpty)
        #expect(Self.found(stalled.releaseHeld(at: Self.at(2) + ServiceAggregator.stackBehindLimit)).count == 1)
    }

    @Test(
        "a whole service is one copy of its source: found at once with its addresses as given, its copies not pending")
    func wholeServices() throws {
        var aggregator = ServiceAggregator()
        let v6 = try #require(ServiceAddress("fd00::2", interfaceName: "lab0", interfaceIndex: 2))
        let v4 = try #require(ServiceAddress("10.0.0.2", interfaceName: "lab0", interfaceIndex: 2))
        let service = DiscoveredService(
            service: ResolvedService(
                instanceName: Self.key.name, serviceType: Self.key.type, domain: Self.key.domain, hostName: "cc.local",
                port: 8009, addresses: [v6, v4], txt: ["id=1"]),
            browseTypes: [Self.base])
        // A recording announces the copy first, then the service.
        _ = aggregator.take(.copyAdded(Self.copy(), browseType: Self.base), at: Self.at(0))
        #expect(aggregator.pendingResolves == 1)
        #expect(aggregator.take(.found(service), at: Self.at(1)) == [.found(service)])
        #expect(aggregator.pendingResolves == 0 && aggregator.nextRelease == nil)
        #expect(aggregator.take(.removed(service), at: Self.at(2)) == [.removed(service)])
        #expect(aggregator.pendingResolves == 0 && aggregator.services.isEmpty, "its copies go with it")
    }

    @Test("a stack's loss forgets its copies: what only it reported is removed")
    func sourceLost() {
        var aggregator = ServiceAggregator(sources: [.init(), .init()])
        let other = ServiceKey(name: "Other", type: .googleCast, domain: "local")
        _ = aggregator.add(Self.copy(), browseType: Self.base, source: 0, at: Self.at(0))
        _ = aggregator.resolved(Self.copy(), Self.resolution("10.0.0.2"), source: 0, at: Self.at(1))
        _ = aggregator.add(Self.copy(key: other), browseType: Self.base, source: 1, at: Self.at(0))
        _ = aggregator.resolved(
            Self.copy(key: other), Self.resolution("10.0.0.3", host: "o.local"), source: 1, at: Self.at(1))
        _ = aggregator.add(Self.copy(), browseType: Self.base, source: 1, at: Self.at(0))
        let lost = aggregator.take(.stateChanged(.daemonLost), from: 1, at: Self.at(2)) ?? []
        #expect(lost.count == 1 && lost.allSatisfy { if case .removed(let s) = $0 { s.key == other } else { false } })
        #expect(aggregator.services.map(\.key) == [Self.key])
        #expect(aggregator.take(.allForNow(browseType: Self.base), at: Self.at(3)) == nil, "a step is not the merge's")
    }

    @Test("a copy whose stack does not say the protocol resolves with every address it has")
    func copyWithoutProtocol() throws {
        var aggregator = ServiceAggregator()
        let copy = ServiceCopyKey(service: Self.key, interfaceIndex: 2, transport: nil)
        _ = aggregator.add(copy, browseType: Self.base, at: Self.at(0))
        #expect(aggregator.pendingResolves == 1)
        let v4 = try #require(ServiceAddress("10.0.0.2", interfaceName: "lab0", interfaceIndex: 2))
        let v6 = try #require(ServiceAddress("fd00::2", interfaceName: "lab0", interfaceIndex: 2))
        let both = ServiceResolution(hostName: "cc.local", port: 8009, addresses: [v4, v6], txt: ["id=1", "fn=TV"])
        let found = Self.found(aggregator.resolved(copy, both, at: Self.at(200)))
        #expect(found.first?.service.addresses == [v4, v6])
        #expect(aggregator.pendingResolves == 0)
    }

    @Test("a copy resolved while its other family is still asked for: the first report waits for it, or for the hold")
    func stillAskingForAddresses() throws {
        var aggregator = ServiceAggregator(wait: FirstReportWait(grace: .milliseconds(50)))
        let copy = ServiceCopyKey(service: Self.key, interfaceIndex: 2, transport: nil)
        let v4 = try #require(ServiceAddress("10.0.0.2", interfaceName: "lab0", interfaceIndex: 2))
        let v6 = try #require(ServiceAddress("fd00::2", interfaceName: "lab0", interfaceIndex: 2))
        _ = aggregator.add(copy, browseType: Self.base, at: Self.at(0))
        let ipv6Only = ServiceResolution(hostName: "cc.local", port: 8009, addresses: [v6], txt: ["id=1"])
        #expect(
            aggregator.resolved(copy, ipv6Only, stillAsking: true, at: Self.at(10)).isEmpty, "held for the IPv4 answer")
        #expect(aggregator.nextRelease == Self.at(10) + FirstReportWait.standardLongest, "the hold, not the grace")
        #expect(aggregator.pendingResolves == 1, "a scan waits for the held report")
        #expect(aggregator.releaseHeld(at: Self.at(100)).isEmpty)
        let both = ServiceResolution(hostName: "cc.local", port: 8009, addresses: [v6, v4], txt: ["id=1"])
        let found = Self.found(aggregator.resolved(copy, both, at: Self.at(120)))
        #expect(found.first.map { Set($0.service.addresses) } == [v4, v6])
        #expect(aggregator.pendingResolves == 0)

        // The other family's query ends without an answer after the grace: released at once,
        // with what came.
        let other = ServiceKey(name: "Other", type: .googleCast, domain: "local")
        let otherCopy = ServiceCopyKey(service: other, interfaceIndex: 2, transport: nil)
        _ = aggregator.add(otherCopy, browseType: Self.base, at: Self.at(200))
        let ipv4Only = ServiceResolution(hostName: "o.local", port: 8009, addresses: [v4], txt: ["id=2"])
        #expect(aggregator.resolved(otherCopy, ipv4Only, stillAsking: true, at: Self.at(205)).isEmpty)
        let released = Self.found(aggregator.addressesComplete(otherCopy, at: Self.at(300)))
        #expect(released.map { $0.service.addresses } == [[v4]])
        #expect(aggregator.addressesComplete(otherCopy, at: Self.at(310)).isEmpty, "once")
        #expect(aggregator.nextRelease == nil)
    }
}

@Suite("ServiceAggregator: the held and pending counts under random traffic")
struct ServiceAggregatorHeldCountTests {
    @Test(
        "the kept counts and release times equal a recount after every change", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func keptCountMatchesRecount(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var aggregator = ServiceAggregator(wait: FirstReportWait(grace: .milliseconds(20)))
        aggregator.setCopyLimit(4)
        let keys = (0..<6).map { ServiceKey(name: "Device-\($0)", type: .googleCast, domain: "local") }
        let copies = keys.flatMap { key in
            [Int32(2), 3].flatMap { interface in
                [ServiceAddress.Family.ipv4, .ipv6].map { ServiceAggregatorTests.copy(interface, $0, key: key) }
            }
        }
        let browses = [ServiceAggregatorTests.base, ServiceAggregatorTests.youTube]
        let error = DiscoveryError(kind: .daemonError, message: "timeout")
        var held = 0
        for step in 0..<3000 {
            let now = ServiceAggregatorTests.at(step)
            let copy = copies.randomElement(using: &random)!
            let browse = browses.randomElement(using: &random)!
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1: _ = aggregator.add(copy, browseType: browse, at: now)
            case 2: _ = aggregator.remove(copy, browseType: browse, at: now)
            case 3:
                _ = aggregator.resolved(
                    copy, ServiceAggregatorTests.resolution("10.0.0.\(step % 200 + 1)"),
                    stillAsking: Bool.random(using: &random), at: now)
            case 4: _ = aggregator.resolveFailed(copy, error, at: now)
            case 5, 6: _ = aggregator.addressesComplete(copy, at: now)
            case 7: _ = aggregator.remove(copy, browseType: browse, at: now)
            case 8: aggregator.setCopyLimit(Int.random(in: 1...4, using: &random))
            default: _ = aggregator.releaseHeld(at: now)
            }
            #expect(aggregator.heldReports == aggregator.heldReportsRecounted, "after step \(step)")
            #expect(aggregator.releaseTimesKept == aggregator.releaseTimesRecomputed, "after step \(step)")
            #expect(aggregator.nextRelease == aggregator.releaseTimesRecomputed.values.min(), "after step \(step)")
            #expect(
                aggregator.pendingResolves - aggregator.heldReports == aggregator.pendingCopiesRecounted,
                "after step \(step)")
            held = max(held, aggregator.heldReports)
            if aggregator.heldReports != aggregator.heldReportsRecounted
                || aggregator.releaseTimesKept != aggregator.releaseTimesRecomputed
            {
                return
            }
        }
        #expect(held > 0, "the traffic held some first reports")
    }
}
