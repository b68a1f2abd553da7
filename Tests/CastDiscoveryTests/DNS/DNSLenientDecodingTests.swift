@testable import CastDiscovery
import Testing

/// The two faults real responders' packets carry (RFC 6762 section 18: be liberal), each built
/// here inside an otherwise good Cast answer: names compressed with pointers ahead, as Android
/// TVs' responders write them, and an NSEC whose next name points into another record, as
/// Android, Sonos and eufy firmware send.
@Suite("DNSMessage: reading record by record")
struct DNSLenientDecodingTests {
    static func name(_ text: String) -> DNSName { DNSMessageTests.name(text) }

    static func label(_ text: String) -> [UInt8] { [UInt8(text.utf8.count)] + Array(text.utf8) }
    static func pointer(_ offset: Int) -> [UInt8] { [0xC0 | UInt8(offset >> 8), UInt8(offset & 0xFF)] }
    static func fields(type: UInt16, cacheFlush: Bool, ttl: UInt32, length: Int) -> [UInt8] {
        [
            UInt8(type >> 8), UInt8(type & 0xFF), cacheFlush ? 0x80 : 0, 1,
            UInt8(ttl >> 24), UInt8(ttl >> 16 & 0xFF), UInt8(ttl >> 8 & 0xFF), UInt8(ttl & 0xFF),
            UInt8(length >> 8), UInt8(length & 0xFF),
        ]
    }

    /// A Cast answer whose PTR names point ahead, at the service type the SRV's owner name
    /// spells out later in the packet; the SRV's target and the A record point back.
    static func forwardPointerAnswer() -> [UInt8] {
        let header: [UInt8] = [0, 0, 0x84, 0, 0, 0, 0, 1, 0, 0, 0, 2]
        // The PTR: its owner is a pointer to the service type (patched below), its data the
        // instance label and the same pointer.
        let ptrStart = header.count
        var bytes =
            header + [0, 0] + fields(type: 12, cacheFlush: false, ttl: 120, length: 18) + label("Chromecast-406c") + [
                0, 0,
            ]
        let srvStart = bytes.count
        let serviceType = srvStart + label("Chromecast-406c").count
        bytes += label("Chromecast-406c") + label("_googlecast") + label("_tcp") + label("local") + [0]
        let local = serviceType + label("_googlecast").count + label("_tcp").count
        let target = label("406c2bcd") + pointer(local)
        bytes += fields(type: 33, cacheFlush: true, ttl: 120, length: 6 + target.count) + [0, 0, 0, 0, 0x1F, 0x49]
        let hostStart = bytes.count
        bytes += target
        bytes += pointer(hostStart) + fields(type: 1, cacheFlush: true, ttl: 120, length: 4) + [10, 213, 1, 1]
        bytes.replaceSubrange(ptrStart..<(ptrStart + 2), with: pointer(serviceType))
        let dataPointer = ptrStart + 2 + 10 + label("Chromecast-406c").count
        bytes.replaceSubrange(dataPointer..<(dataPointer + 2), with: pointer(serviceType))
        return bytes
    }

    @Test("names compressed with pointers ahead, as Android TVs write them, are read")
    func forwardPointers() throws {
        let bytes = Self.forwardPointerAnswer()
        let expected = DNSMessage(
            flags: DNSMessage.responseFlag | DNSMessage.authoritativeFlag,
            answers: [
                DNSResourceRecord(
                    name: Self.name("_googlecast._tcp.local"), ttl: 120,
                    data: .ptr(Self.name("Chromecast-406c._googlecast._tcp.local")))
            ],
            additionals: [
                DNSResourceRecord(
                    name: Self.name("Chromecast-406c._googlecast._tcp.local"), cacheFlush: true, ttl: 120,
                    data: .srv(priority: 0, weight: 0, port: 8009, target: Self.name("406c2bcd.local"))),
                DNSResourceRecord(
                    name: Self.name("406c2bcd.local"), cacheFlush: true, ttl: 120, data: .a(IPv4Address(10, 213, 1, 1))),
            ])
        #expect(try DNSMessage(decoding: bytes) == expected)
    }

    /// The Cast answer of ``DNSMessageTests/castAnswer``, then an NSEC for its host whose next
    /// name points at the SRV record's class (0x80 01 with the cache-flush bit: no length byte),
    /// then an A record for another host; the header counts both.
    static func badNSECAnswer() throws -> (bytes: [UInt8], srvClass: Int) {
        let answer = DNSMessageTests.castAnswer
        var bytes = try answer.encoded()
        // The SRV record starts where a message of the PTR alone ends, with a 2-byte pointer to
        // the instance name; its class follows its type.
        let ptrOnly = try DNSMessage(flags: answer.flags, answers: answer.answers).encoded()
        let srvClass = ptrOnly.count + 2 + 2
        #expect(bytes[srvClass] == 0x80)
        let host = bytes.firstRange(of: label("406c2bcd"))!.lowerBound
        let additionals = answer.additionals.count + 2
        bytes[10] = UInt8(additionals >> 8)
        bytes[11] = UInt8(additionals & 0xFF)
        bytes +=
            pointer(host) + fields(type: 47, cacheFlush: true, ttl: 120, length: 6) + pointer(srvClass) + [
                0, 2, 0x40, 0,
            ]
        bytes +=
            label("other") + label("local") + [0] + fields(type: 1, cacheFlush: true, ttl: 120, length: 4) + [
                10, 213, 1, 2,
            ]
        return (bytes, srvClass)
    }

    @Test("an NSEC whose next name points into another record is skipped; the records around it are kept")
    func badNSECSkipped() throws {
        let (bytes, srvClass) = try Self.badNSECAnswer()
        let decoding = try DNSMessage.decodingLeniently(bytes)
        var expected = DNSMessageTests.castAnswer
        expected.additionals.append(
            DNSResourceRecord(
                name: Self.name("other.local"), cacheFlush: true, ttl: 120, data: .a(IPv4Address(10, 213, 1, 2))))
        #expect(decoding.message == expected)
        #expect(decoding.skippedRecords.map(\.kind) == [.labelTooLong(length: 0x80)])
        #expect(decoding.skippedRecords.first?.offset == srvClass, "the error is found where the pointer leads")
        #expect(decoding.stoppedBy == nil)
        #expect(decoding.malformedRecordCount == 1)
        // Strictly, the skipped record is the message's error.
        #expect(throws: decoding.skippedRecords[0]) { try DNSMessage(decoding: bytes) }
    }

    @Test("a broken owner name ends the message there, keeping the records before it")
    func brokenOwnerStops() throws {
        var bytes = try DNSMessageTests.castAnswer.encoded()
        let count = DNSMessageTests.castAnswer.additionals.count + 1
        bytes[11] = UInt8(count)
        bytes += [0x41, 0x61]
        let decoding = try DNSMessage.decodingLeniently(bytes)
        #expect(decoding.message == DNSMessageTests.castAnswer)
        #expect(decoding.stoppedBy == DNSDecodingError(.labelTooLong(length: 0x41), at: bytes.count - 2))
        #expect(decoding.malformedRecordCount == 1)
        #expect(!decoding.gaveNothing)
    }

    @Test("records whose data does not fit their type are skipped, each counted, the next still read")
    func badDataSkipped() throws {
        // An A record of 5 bytes, then a good A record.
        let owner = Self.label("a") + [0]
        let bytes: [UInt8] =
            [0, 0, 0x84, 0, 0, 0, 0, 2, 0, 0, 0, 0] + owner
            + Self.fields(type: 1, cacheFlush: false, ttl: 120, length: 5)
            + [10, 0, 0, 1, 9] + Self.pointer(12) + Self.fields(type: 1, cacheFlush: false, ttl: 120, length: 4) + [
                10, 0, 0, 2,
            ]
        let decoding = try DNSMessage.decodingLeniently(bytes)
        #expect(
            decoding.message.answers == [
                DNSResourceRecord(name: Self.name("a"), ttl: 120, data: .a(IPv4Address(10, 0, 0, 2)))
            ])
        #expect(decoding.skippedRecords.map(\.kind) == [.badRecordData(type: .a, reason: "5 bytes, not 4")])
    }

    @Test("a header cut short gives nothing: an error, not an empty message")
    func shortHeader() {
        #expect(throws: DNSDecodingError(.truncated, at: 10)) {
            try DNSMessage.decodingLeniently([0, 0, 0x84, 0, 0, 0, 0, 1, 0, 0, 0])
        }
    }
}
