import CastDiscovery
import Testing

@Suite("ScanProgress")
struct ScanProgressTests {
    static let base = "_googlecast._tcp"
    static let sub = "_233637DE._sub._googlecast._tcp"

    static func found(_ browses: Set<String>) -> BackendEvent {
        .found(DiscoveredService(
            service: ResolvedService(instanceName: "x", hostName: "x.local", port: 8009, addresses: [], txt: []),
            browseTypes: browses))
    }

    /// Feeds `events` in order and returns after which ones (by index) the scan became complete.
    static func completions(_ browseTypes: [String], _ events: [BackendEvent]) -> [Int] {
        var progress = ScanProgress(browseTypes: browseTypes)
        return events.indices.filter { progress.record(events[$0]) }
    }

    @Test("cold daemon: an empty cache is not enough; all-for-now is, once resolves finish")
    func cold() {
        let events: [BackendEvent] = [
            .cacheExhausted(browseType: Self.base), .resolvesPending(1), Self.found([Self.base]),
            .allForNow(browseType: Self.base), .resolvesPending(0), .resolvesPending(0),
        ]
        #expect(Self.completions([Self.base], events) == [4])
    }

    @Test("warm daemon: a delivered cache with results completes once resolves finish")
    func warm() {
        let events: [BackendEvent] = [
            .resolvesPending(2), .cacheExhausted(browseType: Self.base), .resolvesPending(1),
            Self.found([Self.base]), .resolvesPending(0), .allForNow(browseType: Self.base),
        ]
        #expect(Self.completions([Self.base], events) == [4])
    }

    @Test("every browse must settle; a subtype without results only by all-for-now")
    func everyBrowse() {
        let events: [BackendEvent] = [
            Self.found([Self.base]), .cacheExhausted(browseType: Self.base),
            .cacheExhausted(browseType: Self.sub), .allForNow(browseType: Self.sub),
        ]
        #expect(Self.completions([Self.base, Self.sub], events) == [3])
    }
}
