@testable import CastChannel
import Testing

@Suite("Cast frames")
struct CastFrameDecoderTests {
    static let status = CastMessage.json(
        #"{"type":"GET_STATUS","requestId":1}"#, from: "sender-0", to: "receiver-0",
        on: "urn:x-cast:com.google.cast.receiver")

    @Test("frames cut at every byte, or two in one read: each message once, in order")
    func split() throws {
        let second = CastMessage.json(
            #"{"type":"PING"}"#, from: "receiver-0", to: "sender-0", on: "urn:x-cast:com.google.cast.tp.heartbeat")
        let bytes = try CastFrameDecoder.frame(Self.status) + CastFrameDecoder.frame(second)
        for cut in 0...bytes.count {
            var decoder = CastFrameDecoder()
            var read: [CastMessage] = []
            decoder.append(bytes[..<cut])
            while let message = try decoder.next() { read.append(message) }
            decoder.append(bytes[cut...])
            while let message = try decoder.next() { read.append(message) }
            #expect(read == [Self.status, second], "cut at \(cut)")
            #expect(decoder.bufferedCount == 0)
        }
    }

    @Test("a length of 0, of 64 KiB + 1 and of 2 GiB: refused from the four length bytes alone")
    func lengths() {
        for header: [UInt8] in [[0, 0, 0, 0], [0, 1, 0, 1], [0x80, 0, 0, 0], [0xFF, 0xFF, 0xFF, 0xFF]] {
            var decoder = CastFrameDecoder()
            decoder.append(header)
            #expect(
                throws: CastChannelError(
                    .protocol,
                    header == [0, 0, 0, 0]
                        ? "a frame of length 0"
                        : "a frame of \(header.reduce(0) { $0 << 8 | Int($1) }) bytes (at most 65536 are accepted)")
            ) {
                try decoder.next()
            }
        }
    }

    @Test("a frame of exactly 64 KiB is read; a message longer than that is not sent")
    func limit() throws {
        var message = Self.status
        message.payloadUTF8 = ""
        let overhead = message.encoded().count
        // The payload's length prefix grows from 1 to 3 bytes.
        message.payloadUTF8 = String(repeating: "a", count: CastFrameDecoder.maximumLength - overhead - 2)
        #expect(message.encoded().count == CastFrameDecoder.maximumLength)
        var decoder = CastFrameDecoder()
        decoder.append(try CastFrameDecoder.frame(message))
        #expect(try decoder.next() == message)
        message.payloadUTF8! += "a"
        #expect(throws: CastChannelError.self) { try CastFrameDecoder.frame(message) }
    }

    @Test("a frame whose body is not a CastMessage: a protocol error")
    func garbage() {
        var decoder = CastFrameDecoder()
        decoder.append([0, 0, 0, 3, 0xFF, 0xFF, 0xFF])
        #expect { try decoder.next() } throws: { ($0 as? CastChannelError)?.code == .protocol }
    }
}

@Suite("CastMessage codec: hostile bytes")
struct CastMessageHostileTests {
    @Test("every prefix and every one-byte change of a message: read or refused, never a crash")
    func mutations() throws {
        let bytes = CastFrameDecoderTests.status.encoded()
        var required = CastFrameDecoderTests.status
        required.payloadUTF8 = nil
        let boundary = required.encoded().count
        for cut in 0..<bytes.count {
            let prefix = Array(bytes[..<cut])
            if cut == boundary {
                // Cut just before the payload: the five required fields, a whole message.
                #expect(try CastMessage(decoding: prefix) == required)
            } else {
                // Every other prefix lacks a required field or cuts one short.
                #expect(throws: CastChannelError.self, "prefix \(cut)") { try CastMessage(decoding: prefix) }
            }
        }
        var read = 0
        for index in bytes.indices {
            for value in [0x00, 0x01, 0x7F, 0x80, 0xFF] as [UInt8] {
                var changed = bytes
                changed[index] = value
                if (try? CastMessage(decoding: changed)) != nil { read += 1 }
            }
        }
        #expect(read > 0, "no change left a readable message (a change inside a string does)")
    }

    @Test(
        "varints: ten bytes read, eleven refused; a group skipped to its end, nested 100 deep at most (protobuf's limit)"
    )
    func varintsAndGroups() throws {
        let base = CastFrameDecoderTests.status.encoded()
        // Field 15 (unknown) as a ten-byte varint: skipped.
        let tenBytes: [UInt8] = [15 << 3] + Array(repeating: 0xFF, count: 9) + [0x01]
        #expect(try CastMessage(decoding: base + tenBytes) == CastFrameDecoderTests.status)
        let elevenBytes: [UInt8] = [15 << 3] + Array(repeating: 0x80, count: 10) + [0x00]
        #expect(throws: CastChannelError.self) { try CastMessage(decoding: base + elevenBytes) }
        // Field 12 (unknown) as a group holding a varint and a nested group (field 13).
        let group: [UInt8] = [12 << 3 | 3, 8, 1, 13 << 3 | 3, 13 << 3 | 4, 12 << 3 | 4]
        #expect(try CastMessage(decoding: base + group) == CastFrameDecoderTests.status)
        let nested100 =
            Array(repeating: UInt8(12 << 3 | 3), count: 100) + Array(repeating: UInt8(12 << 3 | 4), count: 100)
        #expect(try CastMessage(decoding: base + nested100) == CastFrameDecoderTests.status)
        let nested101 =
            Array(repeating: UInt8(12 << 3 | 3), count: 101) + Array(repeating: UInt8(12 << 3 | 4), count: 101)
        #expect(throws: CastChannelError.self) { try CastMessage(decoding: base + nested101) }
        let unended: [UInt8] = [12 << 3 | 3, 8, 1]
        #expect(throws: CastChannelError.self) { try CastMessage(decoding: base + unended) }
        #expect(throws: CastChannelError.self) { try CastMessage(decoding: base + [12 << 3 | 4]) }
        // Field number 0 inside a skipped group, as Google's parser takes it (not outside).
        #expect(
            try CastMessage(decoding: base + [12 << 3 | 3, 0 << 3 | 2, 0, 12 << 3 | 4]) == CastFrameDecoderTests.status)
        #expect(throws: CastChannelError.self) { try CastMessage(decoding: base + [0 << 3 | 2, 0]) }
        let mismatched: [UInt8] = [12 << 3 | 3, 13 << 3 | 4]
        #expect(throws: CastChannelError.self) { try CastMessage(decoding: base + mismatched) }
    }

    @Test("a length that runs past the end, and text that is not UTF-8: refused")
    func lengthsAndText() {
        let base = CastFrameDecoderTests.status.encoded()
        #expect(throws: CastChannelError.self) {
            try CastMessage(decoding: base + [15 << 3 | 2, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F])
        }
        var message = CastFrameDecoderTests.status.encoded()
        // The source id's first byte ("s") made a lone continuation byte.
        let index = try! #require(message.firstIndex(of: UInt8(ascii: "s")))
        message[index] = 0x80
        #expect { try CastMessage(decoding: message) } throws: { "\($0)".contains("source_id is not UTF-8") }
    }
}
