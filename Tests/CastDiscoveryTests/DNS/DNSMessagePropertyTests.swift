@testable import CastDiscovery
import Foundation
import Testing

@Suite("DNSMessage: round trip and fuzzing")
struct DNSMessagePropertyTests {
    @Test("encode, then decode, gives the same message, for 3,000 random messages")
    func roundTrip() throws {
        var generator = DNSMessageGenerator(seed: 13)
        for index in 0..<3000 {
            let message = generator.message()
            let bytes: [UInt8]
            do {
                bytes = try message.encoded()
            } catch {
                Issue.record("message \(index) did not encode: \(error)")
                continue
            }
            let decoded = try DNSMessage(decoding: bytes)
            guard decoded == message else {
                Issue.record("message \(index) changed in the round trip:\n\(message)\n\(decoded)")
                return
            }
            // Compression never makes a message longer than writing every name in full.
            let full = 12 + message.questions.reduce(0) { $0 + $1.name.wireLength + 4 }
                + message.records.reduce(0) { $0 + $1.name.wireLength + 10 + Self.fullLength($1.data) }
            #expect(bytes.count <= full)
        }
    }

    static func fullLength(_ data: DNSRecordData) -> Int {
        switch data {
        case .ptr(let name): name.wireLength
        case .srv(_, _, _, let target): 6 + target.wireLength
        case .txt(let txt): (try? txt.wireFormat().count) ?? 0
        case .a: 4
        case .aaaa: 16
        case .nsec(let next, _): next.wireLength + 34 * 256
        case .other(_, let bytes): bytes.count
        }
    }

    /// Iterations of the fuzz test; `CAST_DNS_FUZZ=1000000` for a long run (the million-packet
    /// run of `make test` is `cast-bench fuzz-dns`, in release mode).
    static let fuzzIterations = Int(ProcessInfo.processInfo.environment["CAST_DNS_FUZZ"] ?? "") ?? 50_000

    /// The most work a message may cost: a name takes at least 2 bytes (a pointer) and visits at
    /// most 127 labels, 127 pointers and the root.
    static func workBound(_ size: Int) -> Int { 128 * (size + 2) }

    @Test("random and mutated packets never trap, and cost work linear in their size")
    func fuzz() throws {
        var generator = DNSMessageGenerator(seed: 6762)
        var seeds = (0..<50).compactMap { _ in try? generator.message().encoded() }
        seeds += try DNSPacketFixtureTests.fixtures().map(\.bytes)
        var decoded = 0
        for index in 0..<Self.fuzzIterations {
            let packet: [UInt8]
            if index % 10 == 0 {
                packet = (0..<generator.int(0...600)).map { _ in generator.byte() }
            } else {
                packet = generator.mutate(seeds[index % seeds.count])
            }
            var steps = 0
            if (try? DNSMessage(decoding: packet, steps: &steps)) != nil { decoded += 1 }
            if steps > Self.workBound(packet.count) {
                Issue.record("\(steps) steps for \(packet.count) bytes: \(packet)")
                return
            }
        }
        #expect(decoded > 0, "some mutations must still decode")
    }

    @Test("the worst pointers can do: 2,000 names each walking a chain of 127 pointers stay within the bound")
    func pointerChains() throws {
        // Question k is the label "a" and a pointer to question k-1: question 126 has 127 labels.
        // Then 2,000 questions that are a pointer to question 126.
        var bytes: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        var last = bytes.count
        bytes += [1, 0x61, 0, 0, 1, 0, 1]
        for _ in 0..<126 {
            let start = bytes.count
            bytes += [1, 0x61, 0xC0 | UInt8(last >> 8), UInt8(last & 0xFF), 0, 1, 0, 1]
            last = start
        }
        for _ in 0..<1300 { bytes += [0xC0 | UInt8(last >> 8), UInt8(last & 0xFF), 0, 1, 0, 1] }
        let questions = 127 + 1300
        bytes[4] = UInt8(questions >> 8)
        bytes[5] = UInt8(questions & 0xFF)
        #expect(bytes.count <= DNSMessage.maximumSize)
        var steps = 0
        let decoded = try DNSMessage(decoding: bytes, steps: &steps)
        #expect(decoded.questions.count == questions)
        #expect(decoded.questions.last?.name.labelCount == 127)
        #expect(steps <= Self.workBound(bytes.count), "\(steps) steps for \(bytes.count) bytes")
    }
}
