@testable import CastDiscovery
@testable import CastDiscoveryMDNS
import Testing

@Suite("MDNSCache: the cache rules of RFC 6762 section 10")
struct MDNSCacheTests {
    static let t0 = ContinuousClock.now
    static func at(_ seconds: Double) -> ContinuousClock.Instant { t0 + .seconds(seconds) }
    static let instance = try! DNSName(parsing: "TV._googlecast._tcp.local")

    static func txt(_ value: String, ttl: UInt32 = 120, flush: Bool = true) -> DNSResourceRecord {
        DNSResourceRecord(
            name: instance, cacheFlush: flush, ttl: ttl, data: .txt(TXTRecord(strings: [Array(value.utf8)])))
    }

    @Test("records live for their TTL; hearing one again renews it")
    func ttl() {
        var cache = MDNSCache()
        #expect(cache.insert(Self.txt("a=1", ttl: 10), at: Self.at(0)) == .added)
        #expect(cache.records(Self.instance, .txt, at: Self.at(9)).count == 1)
        #expect(cache.insert(Self.txt("a=1", ttl: 10), at: Self.at(5)) == .refreshed)
        #expect(cache.expire(at: Self.at(14)).isEmpty)
        #expect(cache.expire(at: Self.at(15)).count == 1)
        #expect(cache.count == 0)
    }

    @Test("a goodbye keeps the record one more second; a goodbye for an unknown record is not cached")
    func goodbye() {
        var cache = MDNSCache()
        _ = cache.insert(Self.txt("a=1"), at: Self.at(0))
        #expect(cache.insert(Self.txt("a=1", ttl: 0), at: Self.at(10)) == .goodbye)
        #expect(cache.expire(at: Self.at(10.9)).isEmpty)
        #expect(cache.expire(at: Self.at(11)).count == 1)
        #expect(cache.insert(Self.txt("b=2", ttl: 0), at: Self.at(12)) == .ignored)
        #expect(cache.count == 0)
    }

    @Test("the cache-flush bit gives older records of the set one second; the newest is first")
    func cacheFlush() {
        var cache = MDNSCache()
        _ = cache.insert(Self.txt("rs="), at: Self.at(0))
        _ = cache.insert(Self.txt("rs=YouTube"), at: Self.at(5))
        #expect(cache.records(Self.instance, .txt, at: Self.at(5)).first == Self.txt("rs=YouTube"))
        #expect(cache.expire(at: Self.at(5.9)).isEmpty)
        #expect(cache.expire(at: Self.at(6)) == [Self.txt("rs=")])
        // Without the bit (a shared record), both stay.
        _ = cache.insert(Self.txt("x=1", flush: false), at: Self.at(7))
        _ = cache.insert(Self.txt("x=2", flush: false), at: Self.at(9))
        #expect(cache.records(Self.instance, .txt, at: Self.at(9)).count == 3)
    }

    @Test("two queries left unanswered flush the record ten seconds after the first; an answer clears them")
    func passiveObservation() {
        var cache = MDNSCache()
        let record = Self.txt("a=1", ttl: 4500)
        _ = cache.insert(record, at: Self.at(0))
        cache.noteQuery(Self.instance, .txt, listing: [], at: Self.at(100))
        cache.noteQuery(Self.instance, .txt, listing: [], at: Self.at(101))
        #expect(cache.expire(at: Self.at(109.9)).isEmpty)
        #expect(cache.expire(at: Self.at(110)) == [record])
        // A query listing the record as a known answer expects no answer: it does not count.
        _ = cache.insert(record, at: Self.at(200))
        cache.noteQuery(Self.instance, .txt, listing: [record.data], at: Self.at(201))
        cache.noteQuery(Self.instance, .txt, listing: [record.data], at: Self.at(202))
        #expect(cache.expire(at: Self.at(300)).isEmpty)
        // An answer heard after the queries clears them.
        cache.noteQuery(Self.instance, .any, listing: [], at: Self.at(301))
        cache.noteQuery(Self.instance, .txt, listing: [], at: Self.at(302))
        _ = cache.insert(record, at: Self.at(303))
        #expect(cache.expire(at: Self.at(320)).isEmpty)
    }

    @Test("refresh points at 80, 85, 90 and 95% of the TTL, each once; known answers above half the TTL")
    func refresh() {
        var cache = MDNSCache()
        _ = cache.insert(Self.txt("a=1", ttl: 100), at: Self.at(0))
        let interesting: (MDNSCache.SetKey) -> Bool = { _ in true }
        #expect(cache.dueRefreshes(at: Self.at(79), interesting: interesting).isEmpty)
        #expect(cache.dueRefreshes(at: Self.at(83), interesting: interesting).count == 1)
        #expect(cache.dueRefreshes(at: Self.at(83.5), interesting: interesting).isEmpty)
        #expect(
            cache.dueRefreshes(at: Self.at(99), interesting: interesting).count == 1,
            "the 85, 90 and 95% points passed together")
        #expect(cache.dueRefreshes(at: Self.at(99.5), interesting: interesting).isEmpty)
        #expect(cache.knownAnswers(Self.instance, .txt, at: Self.at(49)).count == 1)
        #expect(cache.knownAnswers(Self.instance, .txt, at: Self.at(51)).isEmpty)
    }

    @Test("a full cache drops new records and counts nothing else; records it holds are still refreshed")
    func capacity() throws {
        var cache = MDNSCache(capacity: 100)
        for index in 0..<100_000 {
            let name = try DNSName(parsing: "fake\(index)._googlecast._tcp.local")
            let change = cache.insert(DNSResourceRecord(name: name, ttl: 4500, data: .ptr(name)), at: Self.at(0))
            #expect(change == (index < 100 ? .added : .dropped))
            if index >= 200 { break }
        }
        #expect(cache.count == 100)
        let first = try DNSName(parsing: "fake0._googlecast._tcp.local")
        #expect(
            cache.insert(DNSResourceRecord(name: first, ttl: 4500, data: .ptr(first)), at: Self.at(1)) == .refreshed)
    }
}
