@testable import CastDiscovery
import Testing

@Suite("DNSMessage: decoding, encoding, errors with offsets")
struct DNSMessageTests {
    static func name(_ text: String) -> DNSName { try! DNSName(parsing: text) }

    /// A Cast answer as a device sends it: the PTR, and SRV, TXT, A and AAAA in the additionals.
    static let castAnswer = DNSMessage(
        flags: DNSMessage.responseFlag | DNSMessage.authoritativeFlag,
        answers: [
            DNSResourceRecord(
                name: name("_googlecast._tcp.local"), ttl: 120,
                data: .ptr(name("Chromecast-406c._googlecast._tcp.local")))
        ],
        additionals: [
            DNSResourceRecord(
                name: name("Chromecast-406c._googlecast._tcp.local"), cacheFlush: true, ttl: 120,
                data: .srv(priority: 0, weight: 0, port: 8009, target: name("406c2bcd.local"))),
            DNSResourceRecord(
                name: name("Chromecast-406c._googlecast._tcp.local"), cacheFlush: true, ttl: 4500,
                data: .txt(["id=406c", "fn=Living Room", "ca=200709", "st=0"])),
            DNSResourceRecord(
                name: name("406c2bcd.local"), cacheFlush: true, ttl: 120, data: .a(IPv4Address(10, 213, 1, 1))),
            DNSResourceRecord(
                name: name("406c2bcd.local"), cacheFlush: true, ttl: 120,
                data: .aaaa(
                    IPv6Address(bytes: [0xfd, 0, 0xca, 0x57] + [UInt8](repeating: 0, count: 10) + [0x1, 0x1])!)),
            DNSResourceRecord(
                name: name("406c2bcd.local"), cacheFlush: true, ttl: 120,
                data: .nsec(next: name("406c2bcd.local"), types: [.a, .aaaa])),
        ])

    @Test("a Cast answer round-trips, with the cache-flush bits, and repeated suffixes compressed")
    func castAnswerRoundTrip() throws {
        let bytes = try Self.castAnswer.encoded()
        #expect(try DNSMessage(decoding: bytes) == Self.castAnswer)
        // Every name after the first reuses a suffix: the instance name is written once in full.
        let instance = Array("Chromecast-406c".utf8)
        let occurrences = (0...(bytes.count - instance.count)).filter {
            Array(bytes[$0..<($0 + instance.count)]) == instance
        }
        #expect(occurrences.count == 1)
        // The shortest encoding: header 12; PTR 24 + 10 + 18 (instance label, pointer); SRV 2 +
        // 10 + 6 + 11 (host label, pointer to "local"); TXT 2 + 10 + 38; A 2 + 10 + 4; AAAA
        // 2 + 10 + 16; NSEC 2 + 10 + 2 + 6 (one window of 4 bytes for A and AAAA).
        #expect(bytes.count == 12 + 52 + 29 + 50 + 16 + 28 + 20)
    }

    @Test("questions keep their QU bit and class")
    func questions() throws {
        let message = DNSMessage(questions: [
            DNSQuestion(name: Self.name("_googlecast._tcp.local"), type: .ptr, unicastResponse: true),
            DNSQuestion(name: Self.name("_CC1AD845._sub._googlecast._tcp.local"), type: .ptr),
        ])
        let bytes = try message.encoded()
        #expect(Array(bytes[0..<12]) == [0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0])
        let decoded = try DNSMessage(decoding: bytes)
        #expect(decoded == message)
        #expect(decoded.questions.map(\.unicastResponse) == [true, false])
    }

    /// The header of a message with one question, then `name` as that question's name, then
    /// the question's type and class.
    static func query(name: [UInt8], prefix: [UInt8] = []) -> [UInt8] {
        [0, 0, 0, 0, 0, UInt8(prefix.isEmpty ? 1 : 2), 0, 0, 0, 0, 0, 0] + prefix + name + [0, 12, 0, 1]
    }

    @Test(
        "malformed names are typed errors carrying the offset",
        arguments: [
            // A pointer to itself: a loop, ended by the steps a name may take.
            (query(name: [0xC0, 12]), DNSDecodingError(.pointerLoop(target: 12), at: 12)),
            // A pointer past the end of the message.
            (query(name: [0xC0, 40]), DNSDecodingError(.pointerOutsideMessage(target: 40), at: 12)),
            // A label, then a pointer back into the same name: a loop.
            (query(name: [1, 0x61, 0xC0, 12]), DNSDecodingError(.pointerLoop(target: 12), at: 14)),
            // A pointer into the middle of a label of the question before, whose byte there is no
            // length.
            (
                query(name: [0xC0, 13], prefix: [3, 0x61, 0x62, 0x63, 0, 0, 12, 0, 1]),
                DNSDecodingError(.labelTooLong(length: 0x61), at: 13)
            ),
            // A length byte of 64 (an extended label type).
            (
                query(name: [0x40] + [UInt8](repeating: 0x61, count: 64) + [0]),
                DNSDecodingError(.labelTooLong(length: 64), at: 12)
            ),
            // A label that runs past the end.
            ([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 10, 0x61], DNSDecodingError(.nameRunsPastEnd, at: 12)),
            // No root label before the end.
            ([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0x61], DNSDecodingError(.nameRunsPastEnd, at: 14)),
            // The header cut short, and a question without its type.
            ([0, 0, 0, 0, 0], DNSDecodingError(.truncated, at: 4)),
            ([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0], DNSDecodingError(.truncated, at: 13)),
        ])
    func malformedNames(bytes: [UInt8], expected: DNSDecodingError) {
        #expect(throws: expected) { try DNSMessage(decoding: bytes) }
    }

    @Test("a name over 255 bytes, built from labels and pointers, is refused")
    func longName() {
        // Five names of 62-byte labels, each pointing to the one before: the fifth is 316 bytes.
        var bytes: [UInt8] = [0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0]
        var previous: Int?
        for _ in 0..<5 {
            let start = bytes.count
            bytes += [62] + [UInt8](repeating: 0x61, count: 62)
            if let previous { bytes += [0xC0 | UInt8(previous >> 8), UInt8(previous & 0xFF)] } else { bytes.append(0) }
            bytes += [0, 12, 0, 1]
            previous = start
        }
        #expect(throws: DNSDecodingError.self) { try DNSMessage(decoding: bytes) }
        do {
            _ = try DNSMessage(decoding: bytes)
        } catch {
            #expect(error.kind == .nameTooLong)
        }
    }

    @Test(
        "records whose data does not fit their type are refused, never partly read",
        arguments: [
            // An A record of 5 bytes.
            (
                [0, 0, 0x84, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0x61, 0, 0, 1, 0, 1, 0, 0, 0, 120, 0, 5, 10, 0, 0, 1, 9],
                DNSDecodingError.Kind.badRecordData(type: .a, reason: "5 bytes, not 4")
            ),
            // Data longer than the message.
            (
                [0, 0, 0x84, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0x61, 0, 0, 1, 0, 1, 0, 0, 0, 120, 0, 9, 10, 0, 0, 1],
                .recordDataPastEnd
            ),
            // A PTR whose name ends before its data does.
            (
                [0, 0, 0x84, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0x61, 0, 0, 12, 0, 1, 0, 0, 0, 120, 0, 4, 1, 0x62, 0, 0],
                .badRecordData(type: .ptr, reason: "its data is 4 bytes, its content 3")
            ),
            // An NSEC bitmap whose windows go backwards.
            (
                [
                    0, 0, 0x84, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0x61, 0, 0, 47, 0, 1, 0, 0, 0, 120, 0, 9, 0xC0, 12, 1, 1,
                    0x40, 0, 1, 0x40, 0,
                ],
                .badRecordData(type: .nsec, reason: "bitmap window 0 out of order")
            ),
            // The message says two answers and has one.
            (
                [0, 0, 0x84, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0x61, 0, 0, 1, 0, 1, 0, 0, 0, 120, 0, 4, 10, 0, 0, 1],
                .nameRunsPastEnd
            ),
        ])
    func malformedRecords(bytes: [UInt8], expected: DNSDecodingError.Kind) {
        do {
            let message = try DNSMessage(decoding: bytes)
            Issue.record("decoded \(message)")
        } catch {
            #expect(error.kind == expected)
        }
    }

    @Test("any other type is kept as raw bytes; trailing bytes after the last record are ignored")
    func otherTypes() throws {
        let record = DNSResourceRecord(
            name: Self.name("host.local"), ttl: 60,
            data: .other(type: DNSRecordType(rawValue: 13), bytes: [3, 0x61, 0x72, 0x6D, 0]))
        let message = DNSMessage(flags: DNSMessage.responseFlag, answers: [record])
        #expect(try DNSMessage(decoding: message.encoded() + [0, 0, 0]) == message)
        #expect(DNSRecordType(rawValue: 13).description == "TYPE13")
    }

    @Test("messages over 9000 bytes are refused, when decoding and when encoding")
    func sizeLimit() {
        #expect(throws: DNSDecodingError(.messageTooLarge(size: 9001), at: 0)) {
            try DNSMessage(decoding: [UInt8](repeating: 0, count: 9001))
        }
        let records = (0..<300).map { index in
            DNSResourceRecord(
                name: Self.name("h\(index).local"), ttl: 1,
                data: .txt(TXTRecord(strings: [Array(repeating: 0x61, count: 50)])))
        }
        #expect(throws: DNSEncodingError.self) { try DNSMessage(answers: records).encoded() }
    }

    @Test("addresses print as their families write them")
    func addresses() {
        #expect(IPv4Address(10, 213, 1, 1).description == "10.213.1.1")
        #expect(IPv4Address("10.213.1.1") == IPv4Address(10, 213, 1, 1))
        #expect(IPv4Address("256.1.1.1") == nil && IPv4Address("1.1.1") == nil)
        #expect(
            IPv6Address(bytes: [0xfd, 0, 0xca, 0x57] + [UInt8](repeating: 0, count: 10) + [0x1, 0x1])?.description
                == "fd00:ca57::101")
        #expect(IPv6Address(bytes: [UInt8](repeating: 0, count: 16))?.description == "::")
        #expect(IPv6Address(bytes: [0xfe, 0x80] + [UInt8](repeating: 0, count: 13) + [1])?.isLinkLocal == true)
        #expect(IPv6Address(bytes: [0, 1, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 10))?.description == "1:0:1::")
        #expect(IPv6Address(bytes: [1, 2, 3]) == nil)
    }
}
