@testable import CastDiscovery
import Testing

@Suite("ResolutionLedger")
struct ResolutionLedgerTests {
    static let tv = ServiceKey(name: "TV", type: .googleCast, domain: "local")
    static let speaker = ServiceKey(name: "Speaker", type: .googleCast, domain: "local")

    /// Every notice an observer of `ledger` hears.
    final class Heard: Sendable {
        let notices = LockedValue<[ResolutionLedger.Notice]>([])
        var all: [ResolutionLedger.Notice] { notices.withLock { $0 } }
    }

    static func observed(_ ledger: ResolutionLedger) -> (Heard, Int) {
        let heard = Heard()
        let token = ledger.observe { notice in heard.notices.withLock { $0.append(notice) } }
        return (heard, token)
    }

    @Test("a resolved service is resolved until its asking source lets it go, and the release is delivered once")
    func release() {
        let ledger = ResolutionLedger(deferral: .milliseconds(175))
        let (heard, _) = Self.observed(ledger)
        ledger.set(Self.tv, resolved: true)
        #expect(ledger.isResolved(Self.tv) && !ledger.isResolved(Self.speaker))
        ledger.deliver()
        #expect(heard.all.isEmpty, "nothing released yet")
        ledger.set(Self.speaker, resolved: false)
        ledger.set(Self.tv, resolved: false)
        #expect(!ledger.isResolved(Self.tv))
        ledger.deliver()
        ledger.deliver()
        #expect(heard.all == [.released([Self.tv])], "a service never resolved is not released")
    }

    @Test("a service resolved again before the delivery is not released")
    func resolvedAgain() {
        let ledger = ResolutionLedger(deferral: .milliseconds(175))
        let (heard, _) = Self.observed(ledger)
        ledger.set(Self.tv, resolved: true)
        ledger.set(Self.tv, resolved: false)
        ledger.set(Self.tv, resolved: true)
        ledger.deliver()
        #expect(heard.all.isEmpty)
    }

    @Test("closed: nothing counts as resolved, the observers hear it once, and later changes are ignored")
    func closed() {
        let ledger = ResolutionLedger(deferral: .milliseconds(175))
        let (heard, token) = Self.observed(ledger)
        let (other, _) = Self.observed(ledger)
        ledger.set(Self.tv, resolved: true)
        ledger.close()
        ledger.close()
        ledger.set(Self.speaker, resolved: true)
        #expect(!ledger.isOpen && !ledger.isResolved(Self.tv) && !ledger.isResolved(Self.speaker))
        ledger.deliver()
        ledger.stopObserving(token)
        ledger.deliver()
        #expect(heard.all == [.closed])
        #expect(other.all == [.closed])
    }

    @Test("the merge marks what an asking source resolves, not what a cache source resolves")
    func merger() {
        let ledger = ResolutionLedger(deferral: .milliseconds(175))
        var merger = BackendMerger(sources: [("mdns", .asks), ("avahi", .cache)], ledger: ledger)
        let tv = MergedBackendTests.service("TV", "10.0.0.2")
        let speaker = MergedBackendTests.service("Speaker", "10.0.0.3")
        _ = merger.take(.found(speaker), from: 1)
        #expect(!ledger.isResolved(speaker.key), "resolved by the daemon only")
        _ = merger.take(.found(tv), from: 0)
        _ = merger.take(.found(tv), from: 1)
        #expect(ledger.isResolved(tv.key))
        _ = merger.take(.removed(tv), from: 0)
        #expect(!ledger.isResolved(tv.key), "the querier let it go, though the daemon still has it")
        _ = merger.take(.found(tv), from: 0)
        #expect(ledger.isResolved(tv.key))
    }

    @Test("the merge closes the ledger when its last asking source fails or ends, not before")
    func mergerCloses() {
        let ledger = ResolutionLedger(deferral: .milliseconds(175))
        var merger = BackendMerger(sources: [("mdns", .asks), ("avahi", .cache), ("hosts", .asks)], ledger: ledger)
        _ = merger.take(.stateChanged(.failed(DiscoveryError(kind: .other, message: "no sockets"))), from: 0)
        _ = merger.end(1)
        #expect(ledger.isOpen, "the known hosts still ask")
        _ = merger.end(2)
        #expect(!ledger.isOpen)
    }

    @Test(
        "the first round: copies wait up to the limit until settled, then the round's deferral; settled is heard once, after the releases, and not once closed"
    )
    func settled() {
        let ledger = ResolutionLedger(deferral: .milliseconds(175), firstRoundLimit: .seconds(2))
        let (heard, _) = Self.observed(ledger)
        #expect(!ledger.isSettled && ledger.currentDeferral == .seconds(2))
        ledger.set(Self.tv, resolved: true)
        ledger.set(Self.tv, resolved: false)
        ledger.settle()
        ledger.settle()
        #expect(ledger.isSettled && ledger.currentDeferral == .milliseconds(175))
        ledger.deliver()
        ledger.deliver()
        #expect(heard.all == [.released([Self.tv]), .settled])

        let closing = ResolutionLedger(deferral: .milliseconds(175))
        let (closed, _) = Self.observed(closing)
        closing.settle()
        closing.close()
        closing.deliver()
        #expect(closed.all == [.closed], "closed says everything")
    }

    @Test(
        "the merge settles the ledger when every asking source said all-for-now for every started browse with nothing pending"
    )
    func mergerSettles() {
        let ledger = ResolutionLedger(deferral: .milliseconds(175))
        var merger = BackendMerger(sources: [("mdns", .asks), ("avahi", .cache), ("hosts", .asks)], ledger: ledger)
        let sub = "_CC1AD845._sub._googlecast._tcp"
        for type in [MergedBackendTests.type, sub] { _ = merger.take(.browseStarted(browseType: type), from: 0) }
        _ = merger.take(.resolvesPending(1), from: 0)
        _ = merger.take(.allForNow(browseType: MergedBackendTests.type), from: 0)
        _ = merger.take(.allForNow(browseType: sub), from: 0)
        _ = merger.take(.allForNow(browseType: MergedBackendTests.type), from: 1)
        _ = merger.take(.allForNow(browseType: sub), from: 1)
        #expect(!ledger.isSettled, "the querier still resolves one; the daemon's all-for-now does not count")
        _ = merger.take(.resolvesPending(0), from: 0)
        #expect(!ledger.isSettled, "the known hosts have not said all-for-now")
        _ = merger.end(2)
        #expect(ledger.isSettled, "an asking source that ended waits for nothing")
    }

    @Test("a merge of a querier and a daemon gives the daemon alone a ledger, deferred by the querier's round")
    func mergedBackend() async throws {
        let asking = RequestRecordingBackend(round: .milliseconds(75))
        let cache = RequestRecordingBackend(round: .milliseconds(730))
        let merged = MergedBackend([.init("mdns", asking, role: .asks), .init("avahi", cache, role: .cache)])
        _ = try merged.events(browsing: [DiscoveryCriteria.serviceType])
        #expect(asking.requests.first?.resolvedElsewhere == nil)
        let ledger = try #require(cache.requests.first?.resolvedElsewhere)
        #expect(ledger.deferral == .milliseconds(75) + MergedBackend.followUpAllowance)

        let both = RequestRecordingBackend(round: .milliseconds(75))
        _ = try MergedBackend([.init("mdns", both, role: .asks), .init("hosts", both, role: .asks)])
            .events(browsing: [DiscoveryCriteria.serviceType])
        #expect(both.requests.allSatisfy { $0.resolvedElsewhere == nil }, "no daemon read for its cache: no ledger")
    }
}

/// A backend that keeps the requests it is started with and reports nothing.
final class RequestRecordingBackend: DiscoveryBackend {
    let queryRound: Duration
    private let started = LockedValue<[BrowseRequest]>([])

    init(round: Duration) { queryRound = round }

    var requests: [BrowseRequest] { started.withLock { $0 } }

    func events(for request: BrowseRequest) throws(DiscoveryError) -> AsyncStream<BackendEvent> {
        started.withLock { $0.append(request) }
        return AsyncStream { $0.finish() }
    }
}
