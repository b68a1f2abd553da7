@testable import CastDiscovery
@testable import CastDiscoveryMDNS
import Testing

/// ``MDNSQueryAssembly`` alone: a query whose known answers go on in packets with TC is whole
/// once its last packet came, with all of them (RFC 6762 section 7.2).
@Suite("MDNSQueryAssembly: queries whole across their packets")
struct MDNSQueryAssemblyTests {
    static let t0 = ContinuousClock.now
    static func at(_ seconds: Double) -> ContinuousClock.Instant { t0 + .seconds(seconds) }

    static let service = try! DNSName(parsing: "_googlecast._tcp.local")
    static let question = DNSQuestion(name: service, type: .ptr)
    static let tv = DNSRecordData.ptr(try! DNSName(parsing: "TV._googlecast._tcp.local"))
    static let radio = DNSRecordData.ptr(try! DNSName(parsing: "Radio._googlecast._tcp.local"))
    static let other = SocketAddress(bytes: [192, 168, 1, 30], port: 5353)
    static let third = SocketAddress(bytes: [192, 168, 1, 31], port: 5353)

    static func records(_ known: [DNSRecordData]) -> [DNSResourceRecord] {
        known.map { DNSResourceRecord(name: service, ttl: 120, data: $0) }
    }

    /// A query for the browse's PTR listing `known`.
    static func query(_ known: [DNSRecordData], truncated: Bool = false) -> DNSMessage {
        DNSMessage(
            id: 0, flags: truncated ? DNSMessage.truncatedFlag : 0, questions: [question], answers: records(known))
    }

    /// The packet that goes on a query with TC: known answers, no question.
    static func continuation(_ known: [DNSRecordData], truncated: Bool = false) -> DNSMessage {
        DNSMessage(id: 0, flags: truncated ? DNSMessage.truncatedFlag : 0, answers: records(known))
    }

    static func known(_ query: MDNSQueryAssembly.Query?) -> Set<DNSRecordData>? {
        query.map { Set($0.knownAnswers(service, .ptr).map(\.data)) }
    }

    @Test("a query in one packet is whole at once")
    func single() {
        var assembly = MDNSQueryAssembly()
        let query = assembly.add(Self.query([Self.tv]), from: Self.other, isEcho: false, at: Self.at(1))
        #expect(query?.questions == [Self.question])
        #expect(Self.known(query) == [Self.tv])
        #expect(query?.at == Self.at(1))
        #expect(assembly.waiting == 0)
    }

    @Test(
        "known answers over several packets (TC): whole once its last packet came, with all of them; a packet from another source does not continue it"
    )
    func truncated() {
        var assembly = MDNSQueryAssembly()
        #expect(
            assembly.add(Self.query([Self.tv], truncated: true), from: Self.other, isEcho: true, at: Self.at(10)) == nil
        )
        #expect(
            assembly.add(Self.continuation([Self.radio]), from: Self.third, isEcho: false, at: Self.at(10.1)) == nil)
        #expect(
            assembly.add(
                Self.continuation([Self.radio], truncated: true), from: Self.other, isEcho: false, at: Self.at(10.2))
                == nil)
        let whole = assembly.add(Self.continuation([]), from: Self.other, isEcho: false, at: Self.at(10.3))
        #expect(Self.known(whole) == [Self.tv, Self.radio])
        #expect(whole?.at == Self.at(10), "asked when its questions came")
        #expect(whole?.isEcho == true, "an echo as its first packet was")
        #expect(assembly.waiting == 0)
    }

    @Test("a query whose rest comes too late, or is cut by a new query from its source, is never whole")
    func lost() {
        var assembly = MDNSQueryAssembly()
        _ = assembly.add(Self.query([Self.tv], truncated: true), from: Self.other, isEcho: false, at: Self.at(10))
        let late = assembly.add(
            Self.continuation([Self.radio]), from: Self.other, isEcho: false,
            at: Self.at(10) + MDNSQueryAssembly.continuationWait + .milliseconds(1))
        #expect(late == nil)
        _ = assembly.add(Self.query([Self.tv], truncated: true), from: Self.other, isEcho: false, at: Self.at(20))
        let next = assembly.add(Self.query([]), from: Self.other, isEcho: false, at: Self.at(20.1))
        #expect(next?.at == Self.at(20.1) && Self.known(next) == [], "the new query alone")
        #expect(
            assembly.add(Self.continuation([Self.radio]), from: Self.other, isEcho: false, at: Self.at(20.2)) == nil)
    }

    @Test("bounded: at most pendingLimit queries wait, at most knownAnswerLimit known answers are kept")
    func bounded() throws {
        var assembly = MDNSQueryAssembly()
        for index in 0..<(MDNSQueryAssembly.pendingLimit + 10) {
            let source = SocketAddress(bytes: [10, 0, UInt8(index >> 8), UInt8(index & 255)], port: 5353)
            _ = assembly.add(Self.query([], truncated: true), from: source, isEcho: false, at: Self.at(1))
        }
        #expect(assembly.waiting == MDNSQueryAssembly.pendingLimit)
        var query = MDNSQueryAssembly.Query(questions: [Self.question], at: Self.at(1), isEcho: false)
        let many = try (0..<(MDNSQueryAssembly.knownAnswerLimit + 5)).map {
            DNSRecordData.ptr(try DNSName(parsing: "TV\($0)._googlecast._tcp.local"))
        }
        query.add(Self.records(Array(many.prefix(100))))
        query.add(Self.records(Array(many.dropFirst(100))))
        #expect(query.knownAnswerCount == MDNSQueryAssembly.knownAnswerLimit)
        #expect(query.knownAnswers(Self.service, .ptr).count == MDNSQueryAssembly.knownAnswerLimit)
    }
}
