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
            let full =
                12 + message.questions.reduce(0) { $0 + $1.name.wireLength + 4 }
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
            guard let decoding = try? DNSMessage.decodingLeniently(packet) else { continue }
            if decoding.isComplete { decoded += 1 }
            if decoding.work > DNSMessage.workBound(forSize: packet.count) {
                Issue.record("\(decoding.work) steps for \(packet.count) bytes: \(packet)")
                return
            }
        }
        #expect(decoded > 0, "some mutations must still decode")
    }

    @Test("captured and random well-formed messages cost at most one step per byte, far inside the work bound")
    func workOfRealMessages() throws {
        var generator = DNSMessageGenerator(seed: 1035)
        var packets = try DNSPacketFixtureTests.fixtures().map(\.bytes)
        packets += (0..<2000).compactMap { _ in try? generator.message().encoded() }
        var worst = 0.0
        for packet in packets {
            let decoding = try DNSMessage.decodingLeniently(packet)
            #expect(decoding.isComplete)
            worst = max(worst, Double(decoding.work) / Double(packet.count))
        }
        #expect(worst <= 1, "the costliest message took \(worst) steps per byte")
        print("DNS decoding work: at most \(worst) steps per byte over \(packets.count) messages")
    }

    /// Question k is the label "a" and a pointer to question k-1, for `chain` questions; then
    /// `pointers` questions, each a pointer to one of the last `targets` chain questions in turn.
    static func pointerChainPacket(chain: Int, pointers: Int, targets: Int) -> [UInt8] {
        var bytes: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        var starts = [bytes.count]
        bytes += [1, 0x61, 0, 0, 1, 0, 1]
        for _ in 1..<chain {
            let last = starts[starts.count - 1]
            starts.append(bytes.count)
            bytes += [1, 0x61, 0xC0 | UInt8(last >> 8), UInt8(last & 0xFF), 0, 1, 0, 1]
        }
        for index in 0..<pointers {
            let target = starts[starts.count - 1 - index % targets]
            bytes += [0xC0 | UInt8(target >> 8), UInt8(target & 0xFF), 0, 1, 0, 1]
        }
        let questions = chain + pointers
        bytes[4] = UInt8(questions >> 8)
        bytes[5] = UInt8(questions & 0xFF)
        return bytes
    }

    @Test("1,300 names that point at one long name cost a step each, and are all read")
    func pointersToOneName() throws {
        let bytes = Self.pointerChainPacket(chain: 60, pointers: 1300, targets: 1)
        #expect(bytes.count <= DNSMessage.maximumSize)
        let decoding = try DNSMessage.decodingLeniently(bytes)
        #expect(decoding.stoppedBy == nil)
        #expect(decoding.message.questions.count == 1360)
        #expect(decoding.message.questions.last?.name.labelCount == 60)
        #expect(
            decoding.work <= DNSMessage.workBound(forSize: bytes.count),
            "\(decoding.work) steps for \(bytes.count) bytes")
    }

    @Test(
        "a compression bomb (1,300 names pointing at 40 long names in turn) is cut at the work bound, keeping what came before"
    )
    func compressionBomb() throws {
        let bytes = Self.pointerChainPacket(chain: 60, pointers: 1300, targets: 40)
        let decoding = try DNSMessage.decodingLeniently(bytes)
        #expect(decoding.stoppedBy?.kind == .workBoundExceeded(bound: DNSMessage.workBound(forSize: bytes.count)))
        #expect(decoding.work <= DNSMessage.workBound(forSize: bytes.count))
        #expect(decoding.message.questions.count > 60, "the chain and some pointers before the cut are kept")
        #expect(decoding.message.questions.count < 1360)
    }

    /// One question whose name points ahead at the first of `labels` blocks, each the label
    /// "a" and a pointer to the next block, the last ending with the root.
    static func scatteredName(labels: Int) -> [UInt8] {
        let first = 18
        var bytes: [UInt8] = [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xC0, UInt8(first), 0, 1, 0, 1]
        for index in 0..<labels {
            let next = first + 4 * (index + 1)
            bytes += index == labels - 1 ? [1, 0x61, 0] : [1, 0x61, 0xC0 | UInt8(next >> 8), UInt8(next & 0xFF)]
        }
        return bytes
    }

    @Test("a name of more than 128 labels and pointers, and a chain of 1,500 hops, are loops")
    func longChains() throws {
        // 60 labels through 60 pointers, with the root: 121 steps, a name.
        let scattered = try DNSMessage.decodingLeniently(Self.scatteredName(labels: 60))
        #expect(scattered.isComplete)
        #expect(scattered.message.questions.first?.name.labelCount == 60)
        // 100 labels through 100 pointers: more than 128 steps.
        let tooScattered = try DNSMessage.decodingLeniently(Self.scatteredName(labels: 100))
        #expect(tooScattered.gaveNothing)
        guard case .pointerLoop = tooScattered.stoppedBy?.kind else {
            Issue.record("stopped by \(String(describing: tooScattered.stoppedBy))")
            return
        }
        // The question's name points ahead, at the last of 1,500 pointers that each point to
        // the one before, the first to a root label.
        let hops = 1500
        let root = 18
        let lastHop = root + 1 + 2 * (hops - 1)
        var bytes: [UInt8] = [
            0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xC0 | UInt8(lastHop >> 8), UInt8(lastHop & 0xFF), 0, 1, 0, 1, 0,
        ]
        for hop in 0..<hops {
            let target = hop == 0 ? root : root + 1 + 2 * (hop - 1)
            bytes += [0xC0 | UInt8(target >> 8), UInt8(target & 0xFF)]
        }
        let hopsDecoding = try DNSMessage.decodingLeniently(bytes)
        #expect(hopsDecoding.gaveNothing)
        #expect(
            hopsDecoding.stoppedBy == DNSDecodingError(.pointerLoop(target: lastHop - 2 * 127), at: lastHop - 2 * 126))
        #expect(hopsDecoding.work <= DNSMessage.maximumNameSteps)
    }
}
