@testable import CastDiscovery

/// Random DNS messages and packets for the codec's property and fuzz tests.
struct DNSMessageGenerator {
    var random: SeededGenerator

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    mutating func byte() -> UInt8 { UInt8.random(in: 0...255, using: &random) }
    mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }

    /// A name of random labels: any bytes, dots, backslashes and capitals included; often
    /// ending in a shared suffix, so compression has something to do.
    mutating func name() -> DNSName {
        let suffixes: [[[UInt8]]] = [
            [Array("_googlecast".utf8), Array("_tcp".utf8), Array("local".utf8)], [Array("local".utf8)],
            [
                Array("_CC1AD845".utf8), Array("_sub".utf8), Array("_googlecast".utf8), Array("_tcp".utf8),
                Array("local".utf8),
            ], [],
        ]
        var labels: [[UInt8]] = []
        for _ in 0..<int(0...3) {
            let alphabet = Array("abcXYZ.\\-_ 0".utf8)
            labels.append((0..<int(1...20)).map { _ in chance(20) ? byte() : alphabet[int(0...(alphabet.count - 1))] })
        }
        labels += suffixes[int(0...(suffixes.count - 1))]
        return (try? DNSName(labels: labels)) ?? .root
    }

    mutating func data() -> DNSRecordData {
        switch int(0...6) {
        case 0: return .ptr(name())
        case 1:
            return .srv(
                priority: UInt16(int(0...65535)), weight: UInt16(int(0...65535)), port: UInt16(int(0...65535)),
                target: name())
        case 2: return .txt(TXTRecord(strings: (0..<int(0...6)).map { _ in (0..<int(1...40)).map { _ in byte() } }))
        case 3: return .a(IPv4Address(value: UInt32.random(in: 0...UInt32.max, using: &random)))
        case 4: return .aaaa(IPv6Address(bytes: (0..<16).map { _ in byte() })!)
        case 5:
            let types = Set(
                (0..<int(0...6)).map { _ in
                    DNSRecordType(rawValue: UInt16(chance(70) ? int(1...255) : int(256...65535)))
                })
            return .nsec(next: name(), types: types.sorted())
        default:
            return .other(
                type: DNSRecordType(rawValue: UInt16(int(256...65535))), bytes: (0..<int(0...30)).map { _ in byte() })
        }
    }

    mutating func record() -> DNSResourceRecord {
        DNSResourceRecord(
            name: name(), recordClass: chance(90) ? 1 : UInt16(int(0...0x7FFF)), cacheFlush: chance(50),
            ttl: UInt32.random(in: 0...UInt32.max, using: &random), data: data())
    }

    mutating func message() -> DNSMessage {
        DNSMessage(
            id: UInt16(int(0...65535)), flags: UInt16(int(0...65535)),
            questions: (0..<int(0...4)).map { _ in
                DNSQuestion(
                    name: name(), type: DNSRecordType(rawValue: UInt16(int(0...300))),
                    recordClass: UInt16(int(0...0x7FFF)),
                    unicastResponse: chance(50))
            },
            answers: (0..<int(0...5)).map { _ in record() },
            authorities: (0..<int(0...2)).map { _ in record() },
            additionals: (0..<int(0...5)).map { _ in record() })
    }

    /// `packet` mutated: bytes flipped, inserted, deleted or cut, counts and lengths replaced with
    /// extreme values, pointers aimed anywhere.
    mutating func mutate(_ packet: [UInt8]) -> [UInt8] {
        var bytes = packet
        for _ in 0..<int(1...4) {
            guard !bytes.isEmpty else { return [byte()] }
            let at = int(0...(bytes.count - 1))
            switch int(0...7) {
            case 0: bytes[at] ^= 1 << UInt8(int(0...7))
            case 1: bytes[at] = byte()
            case 2: bytes.insert(contentsOf: (0..<int(1...8)).map { _ in byte() }, at: at)
            case 3: bytes.removeSubrange(at..<min(bytes.count, at + int(1...16)))
            case 4: bytes.removeSubrange(at...)
            case 5:
                // A count in the header, set to something large.
                if bytes.count >= 12 { bytes[4 + 2 * int(0...3)] = byte() }
            case 6:
                // A pointer to anywhere, or to itself.
                let target = chance(30) ? at : int(0...max(0, bytes.count - 1))
                bytes[at] = 0xC0 | UInt8((target >> 8) & 0x3F)
                if at + 1 < bytes.count { bytes[at + 1] = UInt8(target & 0xFF) }
            default:
                bytes[at] = UInt8(int(60...70))
            }
        }
        return bytes
    }
}
