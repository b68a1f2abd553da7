@testable import CastDiscovery
import Testing

@Suite("The one rule for unsafe text")
struct TextSafetyTests {
    /// Every scalar of one and two UTF-8 bytes (where every C0, DEL and C1 control lies), every
    /// scalar of the General Punctuation block (bidi controls, separators, zero-width
    /// characters), then every 61st scalar above.
    static let scalars =
        Array(UInt32(0)...0x7FF) + Array(UInt32(0x2000)...0x206F)
        + Array(stride(from: UInt32(0x800), through: 0x10FFFF, by: 61))

    @Test(
        "a lone scalar is unsafe exactly when it is a control, a separator, a noncharacter, a format character or a RawPath byte"
    )
    func loneScalars() {
        var mismatches: [UInt32] = []
        for value in Self.scalars {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let category = scalar.properties.generalCategory
            let expected =
                category == .control || category == .format || category == .lineSeparator
                || category == .paragraphSeparator || value == 0xFFFE || value == 0xFFFF
                || (0x10FE00...0x10FEFF).contains(value)
            if TextSafety.isUnsafe(at: 0, in: [scalar]) != expected { mismatches.append(value) }
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(5).map { String($0, radix: 16) })")
    }

    @Test(
        "the byte check agrees with the scalar rule, for every scalar up to U+07FF, the punctuation block and a sample above"
    )
    func bytesAgreeWithScalars() {
        var mismatches: [UInt32] = []
        for value in Self.scalars {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(Character(scalar))
            let expected = TextSafety.isUnsafe(at: 0, in: [scalar])
            if TextSafety.containsUnsafe(utf8: Array(text.utf8)) != expected
                || TextSafety.containsUnsafe(text) != expected
            {
                mismatches.append(value)
            }
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(5).map { String($0, radix: 16) })")
    }

    @Test(
        "inside longer text, neighbours decide for joiners and tags",
        arguments: [
            ("Living Room", false), ("Tab\there", true), ("C1 \u{85} next line", true), ("Ünïcødé", false),
            ("\u{1B}[31m", true), ("emoji 👨‍👩‍👧", false), ("del \u{7F}", true), ("Стас", false),
            ("csi \u{9B}31m", true), ("rtl \u{202E}evil", true), ("isolate \u{2066}x\u{2069}", true),
            ("line\u{2028}sep", true), ("zero\u{200B}width", true), ("lone joiner a\u{200D}b", true),
            ("flag 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}", false), ("tag a\u{E0067}", true),
            ("persian می\u{200C}خواهم", false), ("private \u{E000}", false),
        ])
    func inText(text: String, expected: Bool) {
        #expect(TextSafety.containsUnsafe(text) == expected)
        #expect(TextSafety.containsUnsafe(utf8: Array(text.utf8)) == expected)
    }

    @Test("bytes that are not UTF-8 are judged as decoded, with U+FFFD for each bad sequence")
    func invalidUTF8() {
        #expect(!TextSafety.containsUnsafe(utf8: [0x41, 0xFF, 0x42]))
        #expect(TextSafety.containsUnsafe(utf8: [0xFF, 0x1B]))
        #expect(TextSafety.containsUnsafe(utf8: [0xE2, 0x80, 0xAE, 0xFF]))
    }

    @Test("quoted messages escape what the rule calls unsafe, and keep joined emoji")
    func quoting() {
        #expect(SafeText.quoted("a\u{202E}b") == "\"a\\u{202E}b\"")
        #expect(SafeText.quoted("csi\u{9B}") == "\"csi\\u{9B}\"")
        #expect(SafeText.quoted("👨‍👩‍👧") == "\"👨‍👩‍👧\"")
        #expect(SafeText.quoted("q\"\\\n") == "\"q\\\"\\\\\\n\"")
    }
}
