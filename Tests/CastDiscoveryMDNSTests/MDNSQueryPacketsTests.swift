@testable import CastDiscovery
@testable import CastDiscoveryMDNS
import Testing

@Suite("MDNSQueryPackets: known answers that do not fit go in following packets, with TC")
struct MDNSQueryPacketsTests {
    @Test("a short list fits one packet; a long one is split, TC on all but the last, every answer sent once")
    func splitting() throws {
        let browse = try DNSName(parsing: "_googlecast._tcp.local")
        let question = DNSQuestion(name: browse, type: .ptr)
        let answers = try (0..<200).map { index in
            DNSResourceRecord(
                name: browse, ttl: 120,
                data: .ptr(try DNSName(parsing: "Chromecast-\(index)-0123456789abcdef._googlecast._tcp.local")))
        }
        let one = MDNSQueryPackets.packets(questions: [question], knownAnswers: Array(answers.prefix(5)))
        #expect(one.count == 1)
        let many = MDNSQueryPackets.packets(questions: [question], knownAnswers: answers, id: 7)
        #expect(many.count > 1)
        let messages = try many.map { try DNSMessage(decoding: $0) }
        #expect(messages.allSatisfy { $0.id == 7 })
        #expect(messages.first?.questions == [question])
        #expect(messages.dropFirst().allSatisfy { $0.questions.isEmpty })
        #expect(messages.dropLast().allSatisfy { $0.isTruncated })
        #expect(messages.last?.isTruncated == false)
        #expect(messages.flatMap(\.answers) == answers)
        #expect(many.allSatisfy { $0.count <= MDNSQueryPackets.maximumSize })
    }
}
