import Testing
import CastDiscovery

@Suite("TXTEntry")
struct TXTEntryTests {
    @Test(
        "key and value split at the first '='",
        arguments: [
            ("id=abc", "id", "abc" as String?),
            ("flag", "flag", nil),
            ("empty=", "empty", ""),
            ("a=b=c", "a", "b=c"),
            ("=value", "", "value"),
            ("=", "", ""),
        ] as [(String, String, String?)])
    func split(text: String, key: String, value: String?) {
        let entry = TXTEntry(text)
        #expect(entry.bytes == Array(text.utf8))
        #expect(entry.key == Array(key.utf8))
        #expect(entry.keyString == key)
        #expect(entry.value == value.map { Array($0.utf8) })
        #expect(entry.txtValue == (value.map { TXTValue.bytes(Array($0.utf8)) } ?? .flag))
    }

    @Test("init(key:value:) writes key=value or a bare flag")
    func keyValueInit() {
        #expect(TXTEntry(key: "fn", value: Array("Room".utf8)).bytes == Array("fn=Room".utf8))
        #expect(TXTEntry(key: "fn", value: []).bytes == Array("fn=".utf8))
        #expect(TXTEntry(key: "bs", value: nil).bytes == Array("bs".utf8))
        #expect(TXTEntry(key: "x", value: [0, 0xFF]).value == [0, 0xFF])
    }

    @Test("keyString replaces invalid UTF-8 with U+FFFD")
    func keyStringInvalid() {
        let entry = TXTEntry(bytes: [0x61, 0xFF, 0x3D, 0x62])
        #expect(entry.keyString == "a\u{FFFD}")
        #expect(entry.value == [0x62])
    }

    @Test("description escapes non-printable bytes")
    func description() {
        #expect(TXTEntry(bytes: [0x61, 0x3D, 0x00, 0xC3, 0xA9, 0x22, 0x5C]).description == #""a=\x00\xC3\xA9\"\\""#)
    }
}
