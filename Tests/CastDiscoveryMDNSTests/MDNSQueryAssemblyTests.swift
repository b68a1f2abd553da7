@testable import CastDiscovery
@testable import CastDiscoveryMDNS
import Testing

/// ``MDNSQueryAssembly`` alone: a query whose known answers go on in packets with TC is whole
/// once its last packet came, with all of them (RFC 6762 section 7.2).
@Suite("MDNSQueryAssembly: queries whole across their packets")
struct MDNSQueryAssemblyTests {
    /// The clock, the browse and its instances of the question history's tests.
    typealias H = MDNSQuestionHistoryTests
    static let question = DNSQuestion(name: H.service, type: .ptr)
    static let other = MDNSDuplicateQuestionTests.otherQuerier
    static let third = SocketAddress(bytes: [192, 168, 1, 31], port: 5353)

    /// The packet that goes on a query with TC: known answers, no question.
    static func continuation(_ known: [DNSRecordData], truncated: Bool = false) -> DNSMessage {
        DNSMessage(id: 0, flags: truncated ? DNSMessage.truncatedFlag : 0, answers: H.records(known))
    }

    static func known(_ query: MDNSQueryAssembly.Query?) -> Set<DNSRecordData>? {
        query.map { Set($0.knownAnswers(H.service, .ptr).map(\.data)) }
    }

    @Test("a query in one packet is whole at once")
    func single() {
        var assembly = MDNSQueryAssembly()
        let query = assembly.add(H.query([H.tv]), from: Self.other, isEcho: false, at: H.at(1))
        #expect(query?.questions == [Self.question])
        #expect(Self.known(query) == [H.tv])
        #expect(query?.at == H.at(1))
        #expect(assembly.waiting == 0)
    }

    @Test(
        "known answers over several packets (TC): whole once its last packet came, with all of them; a packet from another source does not continue it"
    )
    func truncated() {
        var assembly = MDNSQueryAssembly()
        #expect(
            assembly.add(H.query([H.tv], truncated: true), from: Self.other, isEcho: true, at: H.at(10)) == nil
        )
        #expect(
            assembly.add(Self.continuation([H.radio]), from: Self.third, isEcho: false, at: H.at(10.1)) == nil)
        #expect(
            assembly.add(
                Self.continuation([H.radio], truncated: true), from: Self.other, isEcho: false, at: H.at(10.2))
                == nil)
        let whole = assembly.add(Self.continuation([]), from: Self.other, isEcho: false, at: H.at(10.3))
        #expect(Self.known(whole) == [H.tv, H.radio])
        #expect(whole?.at == H.at(10), "asked when its questions came")
        #expect(whole?.isEcho == true, "an echo as its first packet was")
        #expect(assembly.waiting == 0)
    }

    @Test("a query whose rest comes too late, or is cut by a new query from its source, is never whole")
    func lost() {
        var assembly = MDNSQueryAssembly()
        _ = assembly.add(H.query([H.tv], truncated: true), from: Self.other, isEcho: false, at: H.at(10))
        let late = assembly.add(
            Self.continuation([H.radio]), from: Self.other, isEcho: false,
            at: H.at(10) + MDNSQueryAssembly.continuationWait + .milliseconds(1))
        #expect(late == nil)
        _ = assembly.add(H.query([H.tv], truncated: true), from: Self.other, isEcho: false, at: H.at(20))
        let next = assembly.add(H.query([]), from: Self.other, isEcho: false, at: H.at(20.1))
        #expect(next?.at == H.at(20.1) && Self.known(next) == [], "the new query alone")
        #expect(
            assembly.add(Self.continuation([H.radio]), from: Self.other, isEcho: false, at: H.at(20.2)) == nil)
    }

    @Test("bounded: at most pendingLimit queries wait, at most knownAnswerLimit known answers are kept")
    func bounded() throws {
        var assembly = MDNSQueryAssembly()
        for index in 0..<(MDNSQueryAssembly.pendingLimit + 10) {
            let source = SocketAddress(bytes: [10, 0, UInt8(index >> 8), UInt8(index & 255)], port: 5353)
            _ = assembly.add(H.query([], truncated: true), from: source, isEcho: false, at: H.at(1))
        }
        #expect(assembly.waiting == MDNSQueryAssembly.pendingLimit)
        var query = MDNSQueryAssembly.Query(questions: [Self.question], at: H.at(1), isEcho: false)
        let many = try (0..<(MDNSQueryAssembly.knownAnswerLimit + 5)).map {
            DNSRecordData.ptr(try DNSName(parsing: "TV\($0)._googlecast._tcp.local"))
        }
        query.add(H.records(Array(many.prefix(100))))
        query.add(H.records(Array(many.dropFirst(100))))
        #expect(query.knownAnswerCount == MDNSQueryAssembly.knownAnswerLimit)
        #expect(query.knownAnswers(H.service, .ptr).count == MDNSQueryAssembly.knownAnswerLimit)
    }
}
