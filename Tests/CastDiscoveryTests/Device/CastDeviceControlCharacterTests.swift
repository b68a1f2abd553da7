@testable import CastDiscovery
import Testing

@Suite("Control characters in TXT values")
struct CastDeviceControlCharacterTests {
    /// Every scalar of one and two UTF-8 bytes (where every control character and every 0xC2
    /// lead byte lies), then every 61st scalar above: enough to catch a wrong byte rule without
    /// hogging a test thread for seconds.
    static let scalars = Array(UInt32(0)...0x7FF) + Array(stride(from: UInt32(0x800), through: 0x10FFFF, by: 61))

    @Test("the byte check agrees with Unicode's Cc category, for every scalar up to U+07FF and a sample above")
    func agreesWithUnicode() {
        var mismatches: [UInt32] = []
        for value in Self.scalars {
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
