@testable import CastDiscovery
@testable import CastDiscoveryMDNS
import Testing

/// Passive observation of failure (RFC 6762 section 10.5) reads whole queries: a query whose
/// known answers go on in packets with TC (section 7.2) lists every record of all its packets,
/// so a record listed in a later packet is never taken for one the query asked for and nobody
/// answered. (Before, each packet was read alone: a browse with more known answers than fit a
/// packet, the querier's own included, flushed the devices listed in its later packets.)
@Suite("MDNSQuerier: passive observation of failure over queries with TC")
struct MDNSPassiveObservationTests {
    typealias T = MDNSQuerierTests
    /// Another querier on eth0's link, eth0's own address (where the echo comes from), the link.
    typealias D = MDNSDuplicateQuestionTests

    /// PTR records of `count` other instances of the browse, none of them the device.
    static func others(_ count: Int) -> [DNSResourceRecord] {
        (0..<count).map {
            DNSResourceRecord(
                name: SimulatedCastDevice.serviceName, ttl: 4500,
                data: .ptr(SimulatedCastDevice.name(["Other-\($0)", "_googlecast", "_tcp", "local"])))
        }
    }

    static func removals(_ events: [BackendEvent]) -> [BackendEvent] {
        events.filter { if case .removed = $0 { true } else { false } }
    }

    @Test("another querier lists the device in the second packet of its query, twice 11 s apart: the device stays")
    func otherQuerierTruncated() async throws {
        let harness = try await T.resolved()
        for start in [Duration.seconds(2), .seconds(13)] {
            let first = DNSMessage(
                id: 0, flags: DNSMessage.truncatedFlag, questions: [T.ptrQuestion], answers: Self.others(30))
            try harness.deliver(first, from: D.otherQuerier, on: 2, at: start)
            let rest = DNSMessage(id: 0, flags: 0, answers: [T.device.ptr()])
            try harness.deliver(rest, from: D.otherQuerier, on: 2, at: start + .milliseconds(20))
        }
        harness.advance(to: .seconds(30))
        let cache = try #require(harness.querier.links[D.link]?.cache)
        #expect(cache.contains(SimulatedCastDevice.serviceName, .ptr, T.device.ptr().data, at: harness.now))
        #expect(Self.removals(await harness.events()).isEmpty)
    }

    @Test("the same query without its second packet leaves the device unanswered: it goes 10 s after the first asking")
    func otherQuerierUnanswered() async throws {
        let harness = try await T.resolved()
        for start in [Duration.seconds(2), .seconds(13)] {
            let query = DNSMessage(id: 0, flags: 0, questions: [T.ptrQuestion], answers: Self.others(30))
            try harness.deliver(query, from: D.otherQuerier, on: 2, at: start)
        }
        harness.advance(to: .seconds(14))
        #expect(Self.removals(await harness.events()) == [.removed(T.discovered(T.device))])
    }

    @Test("the querier's own browse lists 41 known answers over several packets; its echoes flush none of them")
    func ownTruncatedQueries() async throws {
        let harness = try await T.resolved()
        try harness.deliver(
            SimulatedCastDevice.response(Self.others(40)), from: T.fromDevice, on: 2, at: .milliseconds(10))
        var truncatedBrowses = 0
        // Every multicast packet the querier sends comes back to it (IP_MULTICAST_LOOP).
        for second in 1...40 {
            harness.advance(to: .seconds(second))
            for query in harness.queries() where !query.legacy {
                if query.message.isTruncated && query.message.questions.contains(T.ptrQuestion) {
                    truncatedBrowses += 1
                }
                harness.deliver(bytes: query.bytes, from: D.ourAddress, on: 2, legacy: false, at: .seconds(second))
            }
        }
        #expect(truncatedBrowses >= 2, "the browse's known answers did not go over several packets")
        let cache = try #require(harness.querier.links[D.link]?.cache)
        #expect(cache.records(SimulatedCastDevice.serviceName, .ptr, at: harness.now).count == 41)
        #expect(Self.removals(await harness.events()).isEmpty)
    }
}
