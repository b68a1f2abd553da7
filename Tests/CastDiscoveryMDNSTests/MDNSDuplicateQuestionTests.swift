@testable import CastDiscovery
@testable import CastDiscoveryMDNS
import Testing

/// Duplicate question suppression (RFC 6762 section 7.3) in the querier, fed packets in-process
/// (``MDNSQuerierHarness``): another querier's query stands in for the querier's continuous
/// query and its refreshes, never for the burst or follow-ups, never its own echo, and passive
/// observation of failure still removes a device that went.
@Suite("MDNSQuerier: duplicate question suppression")
struct MDNSDuplicateQuestionTests {
    typealias T = MDNSQuerierTests
    typealias Harness = MDNSQuerierHarness

    /// Another querier on eth0's link.
    static let otherQuerier = SocketAddress(bytes: [192, 168, 1, 30], port: 5353)
    /// Eth0's own address: where the querier's echo, and any other stack on the host, send from.
    static let ourAddress = SocketAddress(bytes: [192, 168, 1, 10], port: 5353)
    static let link = MDNSLink.ID(interface: 2, ipv6: false)
    static let kitchen = SimulatedCastDevice(
        uuid: "fedcba9876543210fedcba9876543210", friendlyName: "Kitchen", ipv4: IPv4Address(192, 168, 1, 21))

    /// The device's SRV, TXT and A questions: what a resolver or a refresh asks for.
    static var deviceQuestions: [DNSQuestion] {
        let device = T.device
        return [
            .init(name: device.instance, type: .srv), .init(name: device.instance, type: .txt),
            .init(name: device.host, type: .a),
        ]
    }

    /// A multicast query (id 0) asking `questions` with `known` as known answers.
    static func query(_ questions: [DNSQuestion], known: [DNSResourceRecord] = []) -> DNSMessage {
        DNSMessage(id: 0, flags: 0, questions: questions, answers: known)
    }

    /// The multicast queries asking the browse's PTR (continuous queries and their like).
    static func browseQueries(_ queries: [Harness.Query]) -> [Harness.Query] {
        queries.filter { !$0.legacy && $0.message.questions.contains(T.ptrQuestion) }
    }

    /// The instant of the resolved device's first refresh point (80% of its TTL and the jitter),
    /// as an offset from the start.
    static func firstRefresh(_ harness: Harness) throws -> Duration {
        try #require(harness.querier.links[link]?.cache.nextDeadline()) - harness.t0
    }

    // MARK: - Continuous queries

    @Test(
        "another querier's QM query with known answers we list too, seen before ours is due: ours is not sent; the next one is"
    )
    func continuousSuppressed() async throws {
        let harness = try await T.resolved()
        harness.advance(to: .milliseconds(1_500))
        let first = Self.browseQueries(harness.queries())
        #expect(first.count == 1 && first.first?.message.answers == [T.device.ptr()], "the continuous query at 1 s")
        try harness.deliver(
            Self.query([T.ptrQuestion], known: [T.device.ptr()]), from: Self.otherQuerier, on: 2,
            at: .milliseconds(2_500))
        harness.advance(to: .milliseconds(6_999))
        #expect(harness.queries().isEmpty, "the one due at 3 s is taken as sent")
        #expect(harness.querier.statistics.suppressedQueries == 1)
        // The schedule went on as if sent (3 s, then 4 s later): the next at 7 s goes, as the
        // other query came before the previous point.
        harness.advance(to: .seconds(7))
        let next = harness.queries()
        #expect(next.count == 1 && next.first?.message.questions == [T.ptrQuestion] && next.first?.legacy == false)
        #expect(next.first?.message.answers == [T.device.ptr()])
        await harness.expectEvents([.allForNow(browseType: T.type)])
        #expect(harness.reportedStatistics?.suppressedQueries == 1)
    }

    @Test("a query listing a PTR we do not hold does not stand in: ours goes")
    func unknownKnownAnswer() async throws {
        let harness = try await T.resolved()
        harness.advance(to: .milliseconds(1_500))
        _ = harness.queries()
        try harness.deliver(
            Self.query([T.ptrQuestion], known: [T.device.ptr(), Self.kitchen.ptr()]), from: Self.otherQuerier, on: 2,
            at: .milliseconds(2_500))
        harness.advance(to: .seconds(3))
        let sent = Self.browseQueries(harness.queries())
        #expect(sent.count == 1 && sent.first?.message.answers == [T.device.ptr()])
        #expect(harness.querier.statistics.suppressedQueries == 0)
    }

    @Test("a QU question does not stand in (its answers may go by unicast to the asker alone)")
    func unicastQuestion() async throws {
        let harness = try await T.resolved()
        harness.advance(to: .milliseconds(1_500))
        _ = harness.queries()
        let qu = DNSQuestion(name: SimulatedCastDevice.serviceName, type: .ptr, unicastResponse: true)
        try harness.deliver(
            Self.query([qu], known: [T.device.ptr()]), from: Self.otherQuerier, on: 2, at: .milliseconds(2_500))
        harness.advance(to: .seconds(3))
        #expect(Self.browseQueries(harness.queries()).count == 1)
        #expect(harness.querier.statistics.suppressedQueries == 0)
    }

    @Test("the querier's own query, looped back from its own address and port, does not stand in for its next one")
    func ownEcho() async throws {
        let harness = try await T.resolved()
        harness.advance(to: .seconds(1))
        let own = try #require(Self.browseQueries(harness.queries()).first)
        harness.deliver(bytes: own.bytes, from: Self.ourAddress, on: 2, legacy: false, at: .milliseconds(1_001))
        harness.advance(to: .seconds(3))
        let second = try #require(Self.browseQueries(harness.queries()).first, "the query at 3 s is sent")
        harness.deliver(bytes: second.bytes, from: Self.ourAddress, on: 2, legacy: false, at: .milliseconds(3_001))
        #expect(harness.querier.statistics.suppressedQueries == 0)
        // The same bytes from the same address later are not an echo: another stack on this host
        // asking the same (as avahi-daemon would), which stands in for the query at 7 s.
        harness.deliver(bytes: second.bytes, from: Self.ourAddress, on: 2, legacy: false, at: .milliseconds(5_500))
        harness.advance(to: .seconds(7))
        #expect(Self.browseQueries(harness.queries()).isEmpty)
        #expect(harness.querier.statistics.suppressedQueries == 1)
    }

    @Test("per link: a query seen on the IPv4 link stands in there only; the IPv6 link still asks")
    func perLink() async throws {
        let harness = try Harness(interfaces: [T.dualEth0])
        harness.start()
        harness.advance(to: .milliseconds(1_500))
        _ = await harness.events()
        _ = harness.queries()
        try harness.deliver(Self.query([T.ptrQuestion]), from: Self.otherQuerier, on: 2, at: .milliseconds(2_500))
        harness.advance(to: .seconds(3))
        let sent = Self.browseQueries(harness.queries())
        #expect(sent.count == 1 && sent.first?.destination.isIPv6 == true)
        #expect(harness.querier.statistics.suppressedQueries == 1)
    }

    @Test("never suppressed: the burst's repeat and the follow-up questions for what a copy lacks")
    func burstAndFollowUps() async throws {
        let harness = try Harness(interfaces: [T.eth0])
        harness.start()
        _ = await harness.events()
        #expect(harness.queries().count == 2)
        let device = T.device
        // An answer without the TXT: the copy asks for it at once, and again 200 ms later.
        let noTXT = DNSMessage(
            id: 0, flags: DNSMessage.responseFlag | DNSMessage.authoritativeFlag, answers: [device.ptr()],
            additionals: [device.srv()] + device.addresses())
        try harness.deliver(noTXT, from: T.fromDevice, on: 2, at: .milliseconds(10))
        #expect(harness.queries().count == 1, "the first follow-up")
        // Another querier asks the PTR and the TXT, knowing nothing.
        try harness.deliver(
            Self.query([T.ptrQuestion, .init(name: device.instance, type: .txt)]), from: Self.otherQuerier, on: 2,
            at: .milliseconds(50))
        harness.advance(to: .milliseconds(75))
        let repeats = harness.queries()
        #expect(T.isRepeat(repeats, answers: [device.ptr()]))
        harness.advance(to: .milliseconds(210))
        let followUps = harness.queries()
        #expect(followUps.count == 1 && followUps.first?.asked == ["\(device.instance) TXT"])
        #expect(harness.querier.statistics.suppressedQueries == 0)
    }

    // MARK: - Refreshes

    @Test(
        "refresh: another querier asked for the SRV, TXT and A just before they are due; only the PTR is asked; its answer refreshes them"
    )
    func refreshSuppressed() async throws {
        let harness = try await T.resolved()
        let point = try Self.firstRefresh(harness)
        try harness.deliver(
            Self.query(Self.deviceQuestions), from: Self.otherQuerier, on: 2, at: point - .milliseconds(50))
        _ = harness.queries()
        harness.advance(to: point + .milliseconds(10))
        let asked = harness.queries()
        #expect(
            asked.count == 1 && asked.first?.asked == ["\(SimulatedCastDevice.serviceName) PTR"],
            "only what the other did not ask")
        #expect(harness.querier.statistics.suppressedQueries == 3)
        // The device answers (by multicast: every querier on the link hears it).
        let answered = point + .milliseconds(20)
        try harness.deliver(T.device.answer(), from: T.fromDevice, on: 2, at: answered)
        harness.advance(to: .seconds(130))
        await harness.expectEvents([.allForNow(browseType: T.type)])
        #expect(
            harness.querier.links[Self.link]?.copies[T.device.instance]?.isResolved == true, "kept past the first TTL")
        #expect(T.refreshes(harness.queries()).isEmpty)
        // The next refresh, at 80% of the renewed TTL, is sent: nothing else was seen.
        let next = answered + (point - .milliseconds(5))
        harness.advance(to: next - .milliseconds(1))
        #expect(T.refreshes(harness.queries()).isEmpty)
        harness.advance(to: next)
        #expect(T.refreshes(harness.queries()).map(\.asked) == [T.refreshed])
    }

    @Test(
        "a device that stops answering is removed by passive observation while another querier's queries stand in for our refreshes"
    )
    func silentDeviceRemoved() async throws {
        let harness = try await T.resolved()
        let point = try Self.firstRefresh(harness)
        let all = [T.ptrQuestion] + Self.deviceQuestions
        try harness.deliver(Self.query(all), from: Self.otherQuerier, on: 2, at: point - .seconds(1))
        _ = harness.queries()
        // Again a second before the 85% point (6 s later), unanswered.
        try harness.deliver(Self.query(all), from: Self.otherQuerier, on: 2, at: point + .seconds(5))
        harness.advance(to: point + .seconds(9) - .milliseconds(1))
        #expect(harness.queries().isEmpty, "the refreshes at 80 and 85% are taken as sent")
        #expect(harness.querier.statistics.suppressedQueries == 8)
        await harness.expectEvents([.allForNow(browseType: T.type)])
        // Two queries left unanswered: the records go ten seconds after the first, before their TTL.
        harness.advance(to: point + .seconds(9))
        await harness.expectEvents([.removed(T.discovered(T.device))])
        #expect(harness.querier.links[Self.link]?.cache.count == 0)
    }
}
