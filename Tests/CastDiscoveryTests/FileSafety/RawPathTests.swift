@testable import CastDiscovery
import Testing

@Suite("RawPath")
struct RawPathTests {
    @Test("UTF-8 names decode to themselves and back", arguments: ["replay.json", "Küche/Стас 🎵.json", "", "/"])
    func utf8RoundTrip(name: String) {
        let decoded = RawPath.decode(Array(name.utf8))
        #expect(decoded == name)
        #expect(RawPath.bytes(of: decoded) == Array(name.utf8))
        #expect(RawPath.display(decoded) == name)
    }

    @Test(
        "every byte of a name that is not UTF-8 comes back exactly",
        arguments: [
            [0x72, 0xFF, 0x2E, 0x6A],  // r\xff.j
            [0xC3],  // a lead byte with nothing after it
            [0xE2, 0x82],  // a truncated 3-byte sequence
            [0xED, 0xA0, 0x80],  // an encoded surrogate (ill-formed)
            [0xC0, 0xAF],  // an overlong "/"
            [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
            [0xF4, 0x8F, 0xB8, 0x80],  // U+10FE00 itself: escaped byte by byte
            [0x80, 0x80, 0x41],
        ] as [[UInt8]])
    func invalidRoundTrip(bytes: [UInt8]) {
        let decoded = RawPath.decode(bytes)
        #expect(RawPath.bytes(of: decoded) == bytes)
        #expect(!decoded.unicodeScalars.contains("\u{FFFD}"), "no byte replaced")
    }

    @Test("distinct names stay distinct: a real U+10FE41 is not the byte 0x41 nor 'A'")
    func injective() {
        let realScalar = RawPath.decode(Array("\u{10FE41}".utf8))
        let invalidByte = RawPath.decode([0xFF])
        #expect(realScalar != "A" && realScalar != RawPath.decode([0x41]))
        #expect(RawPath.bytes(of: realScalar) == Array("\u{10FE41}".utf8))
        #expect(invalidByte != realScalar)
    }

    @Test("messages show the bytes as \\xHH, and TextSafety treats the stand-ins as unsafe")
    func display() {
        let decoded = RawPath.decode([0x72, 0xFF, 0x2E, 0x6A, 0x73, 0x6F, 0x6E])
        #expect(RawPath.display(decoded) == "r\\xFF.json")
        #expect(TextSafety.containsUnsafe(decoded))
    }

    @Test("withCString hands the system the original bytes, NUL-terminated")
    func cString() {
        let decoded = RawPath.decode([0x61, 0xFE, 0x62])
        let bytes = RawPath.withCString(decoded) { pointer in
            (0..<4).map { UInt8(bitPattern: pointer[$0]) }
        }
        #expect(bytes == [0x61, 0xFE, 0x62, 0])
    }
}
