import CastDiscovery
import Testing

@Suite("ScanProgress")
struct ScanProgressTests {
    static let base = "_googlecast._tcp"
    static let sub = "_233637DE._sub._googlecast._tcp"
    static let t0 = ContinuousClock.now

    static func found(_ name: String, _ browses: Set<String> = [base]) -> BackendEvent {
        .found(DiscoveredService(
            service: ResolvedService(instanceName: name, hostName: "x.local", port: 8009, addresses: [], txt: []),
            browseTypes: browses))
    }

    /// Feeds `(milliseconds, event)` pairs and returns the status after each.
    static func statuses(_ browseTypes: [String], _ events: [(Int, BackendEvent)]) -> [ScanProgress.Status] {
        var progress = ScanProgress(browseTypes: browseTypes)
        return events.map { progress.record($0.1, at: t0 + .milliseconds($0.0)) }
    }

    static func quiet(_ ms: Int) -> ScanProgress.Status { .quietUntil(t0 + .milliseconds(ms)) }

    @Test("cold daemon: an empty cache is not enough; all-for-now is, once resolves finish")
    func cold() {
        let result = Self.statuses([Self.base], [
            (0, .cacheExhausted(browseType: Self.base)), (50, .resolvesPending(1)), (60, Self.found("a")),
            (1000, .allForNow(browseType: Self.base)), (1000, .resolvesPending(0)),
        ])
        #expect(result == [.waiting, .waiting, .waiting, .waiting, .complete])
    }

    @Test("warm daemon: a delivered cache with results completes after a quiet period")
    func warm() {
        var progress = ScanProgress(browseTypes: [Self.base])
        #expect(progress.record(.resolvesPending(2), at: Self.t0) == .waiting)
        #expect(progress.record(.cacheExhausted(browseType: Self.base), at: Self.t0 + .milliseconds(1)) == .waiting)
        #expect(progress.record(Self.found("a"), at: Self.t0 + .milliseconds(5)) == .waiting)
        // Quiet from the last new service (found at 5 ms) for 150 ms.
        #expect(progress.record(.resolvesPending(0), at: Self.t0 + .milliseconds(6)) == Self.quiet(155))
        #expect(progress.status(at: Self.t0 + .milliseconds(154)) == Self.quiet(155))
        #expect(!progress.isComplete)
        #expect(progress.status(at: Self.t0 + .milliseconds(155)) == .complete)
        #expect(progress.isComplete)
    }

    @Test("answers still arriving after the cache push the quiet period back")
    func trickle() {
        let result = Self.statuses([Self.base], [
            (0, .resolvesPending(1)), (1, .cacheExhausted(browseType: Self.base)), (5, Self.found("a")),
            (5, .resolvesPending(0)), (90, .resolvesPending(1)), (95, Self.found("b")), (95, .resolvesPending(0)),
        ])
        #expect(result == [.waiting, .waiting, .waiting, Self.quiet(155), .waiting, .waiting, Self.quiet(245)])
    }

    @Test("every browse must settle; a subtype without results only by all-for-now")
    func everyBrowse() {
        let result = Self.statuses([Self.base, Self.sub], [
            (0, Self.found("a")), (1, .cacheExhausted(browseType: Self.base)),
            (2, .cacheExhausted(browseType: Self.sub)), (1000, .allForNow(browseType: Self.sub)),
        ])
        #expect(result == [.waiting, .waiting, .waiting, .complete])
    }
}
