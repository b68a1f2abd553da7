@testable import CastDiscovery
import Testing

@Suite("Control characters in TXT values")
struct CastDeviceControlCharacterTests {
    @Test("the byte check agrees with Unicode's Cc category for every scalar of the BMP and beyond")
    func agreesWithUnicode() {
        var mismatches: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let bytes = Array(String(Character(scalar)).utf8)
            let expected = scalar.properties.generalCategory == .control
            if CastDevice.containsControlCharacter(bytes) != expected { mismatches.append(value) }
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(5).map { String($0, radix: 16) })")
    }

    @Test("inside longer text", arguments: [
        ("Living Room", false), ("Tab\there", true), ("C1 \u{85} next line", true), ("Ünïcødé", false),
        ("\u{1B}[31m", true), ("emoji 👨‍👩‍👧", false), ("del \u{7F}", true), ("Стас", false),
    ])
    func inText(text: String, expected: Bool) {
        #expect(CastDevice.containsControlCharacter(Array(text.utf8)) == expected)
    }
}
