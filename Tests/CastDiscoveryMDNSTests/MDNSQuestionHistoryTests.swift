@testable import CastDiscovery
@testable import CastDiscoveryMDNS
import Testing

/// ``MDNSQuestionHistory`` alone: which queries of other queriers stand in for the querier's
/// own (RFC 6762 section 7.3), and its own echo.
@Suite("MDNSQuestionHistory: duplicate question suppression on one link")
struct MDNSQuestionHistoryTests {
    typealias Question = MDNSQuestionHistory.Question
    static let t0 = ContinuousClock.now
    static func at(_ seconds: Double) -> ContinuousClock.Instant { t0 + .seconds(seconds) }

    static let service = try! DNSName(parsing: "_googlecast._tcp.local")
    static let browse = Question(name: service, type: .ptr)
    static let tv = DNSRecordData.ptr(try! DNSName(parsing: "TV._googlecast._tcp.local"))
    static let radio = DNSRecordData.ptr(try! DNSName(parsing: "Radio._googlecast._tcp.local"))

    /// A query for the browse's PTR listing `known`, from port 5353 (`truncated`: its known
    /// answers go on in the next packet).
    static func query(_ known: [DNSRecordData], qu: Bool = false, truncated: Bool = false) -> DNSMessage {
        DNSMessage(
            id: 0, flags: truncated ? DNSMessage.truncatedFlag : 0,
            questions: [DNSQuestion(name: service, type: .ptr, unicastResponse: qu)],
            answers: records(known))
    }

    /// The browse's PTR records naming `known`.
    static func records(_ known: [DNSRecordData]) -> [DNSResourceRecord] {
        known.map { DNSResourceRecord(name: service, ttl: 120, data: $0) }
    }

    /// Hears `message` as a whole query (one packet) at `seconds`.
    static func heard(_ history: inout MDNSQuestionHistory, _ message: DNSMessage, at seconds: Double) {
        var query = MDNSQueryAssembly.Query(questions: message.questions, at: at(seconds), isEcho: false)
        query.add(message.answers)
        history.heard(query, at: at(seconds)) { _ in true }
    }

    @Test(
        "a QM question listing known answers we list too stands in; one listing a record we lack, a QU one, or one before the window does not"
    )
    func standsIn() {
        var history = MDNSQuestionHistory()
        Self.heard(&history, Self.query([Self.tv]), at: 10)
        #expect(history.standsIn(for: Self.browse, since: Self.at(5), holding: [Self.tv], at: Self.at(12)))
        #expect(
            history.standsIn(for: Self.browse, since: Self.at(5), holding: [Self.tv, Self.radio], at: Self.at(12)),
            "we list more: fine")
        #expect(
            !history.standsIn(for: Self.browse, since: Self.at(5), holding: [], at: Self.at(12)),
            "it lists a record we lack")
        #expect(
            !history.standsIn(for: Self.browse, since: Self.at(10), holding: [Self.tv], at: Self.at(12)),
            "not after the window's start")
        #expect(
            !history.standsIn(
                for: .init(name: Self.service, type: .srv), since: Self.at(5), holding: [], at: Self.at(12)))
        let old = Self.at(10) + MDNSQuestionHistory.maximumAge + .seconds(1)
        #expect(!history.standsIn(for: Self.browse, since: Self.at(5), holding: [Self.tv], at: old), "too old")

        var qu = MDNSQuestionHistory()
        Self.heard(&qu, Self.query([], qu: true), at: 10)
        #expect(!qu.standsIn(for: Self.browse, since: Self.at(5), holding: [Self.tv], at: Self.at(12)))
        #expect(qu.asked.isEmpty)
    }

    @Test("the latest asking counts: a later query listing a record we lack stops an earlier one from standing in")
    func latest() {
        var history = MDNSQuestionHistory()
        Self.heard(&history, Self.query([Self.tv]), at: 10)
        Self.heard(&history, Self.query([Self.tv, Self.radio]), at: 11)
        #expect(!history.standsIn(for: Self.browse, since: Self.at(5), holding: [Self.tv], at: Self.at(12)))
    }

    @Test(
        "the querier's own echo is recognized once, within the echo window; the same bytes later are another querier's")
    func echo() throws {
        var history = MDNSQuestionHistory()
        let bytes = try Self.query([Self.tv]).encoded()
        let other = try Self.query([]).encoded()
        history.sent(bytes, at: Self.at(1))
        let otherBytes = history.isEcho(other, at: Self.at(1.001))
        let echo = history.isEcho(bytes, at: Self.at(1.001))
        let again = history.isEcho(bytes, at: Self.at(1.002))
        #expect(!otherBytes && echo)
        #expect(!again, "each packet sent comes back once")
        history.sent(bytes, at: Self.at(3))
        let late = history.isEcho(bytes, at: Self.at(3) + MDNSQuestionHistory.echoWindow + .milliseconds(1))
        #expect(!late)
    }

    @Test("at most its capacity of questions; what is too old to stand in makes room")
    func capacity() throws {
        var history = MDNSQuestionHistory()
        let capacity = MDNSQuestionHistory.capacity
        for index in 0...capacity {
            let name = try DNSName(parsing: "TV\(index)._googlecast._tcp.local")
            Self.heard(&history, DNSMessage(id: 0, flags: 0, questions: [DNSQuestion(name: name, type: .srv)]), at: 1)
        }
        #expect(history.asked.count == capacity)
        let late = 2 + MDNSQuestionHistory.maximumAge.components.seconds
        Self.heard(&history, Self.query([]), at: Double(late))
        #expect(history.asked.count == 1 && history.asked[Self.browse] != nil)
    }
}
