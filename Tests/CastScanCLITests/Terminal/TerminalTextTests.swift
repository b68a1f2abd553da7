import Testing

@testable import CastScanCLI

/// Untrusted device names made safe for a terminal.
@Suite("TerminalText")
struct TerminalTextTests {
    /// Scalars that must never reach the terminal raw.
    static let forbidden: Set<UInt32> = Set(
        Array(0x00...0x1F) + Array(0x7F...0x9F) + [
            0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200B, 0x2028, 0x2029, 0xFEFF,
        ])

    @Test(
        "escaped style",
        arguments: [
            ("\u{1B}[31mRED\u{1B}[0m", "\\e[31mRED\\e[0m"),
            ("\u{1B}]0;title\u{7}", "\\e]0;title\\x07"),
            ("\u{1B}[2J", "\\e[2J"),
            ("Living\nRoom", "Living\\nRoom"),
            ("a\tb\rc", "a\\tb\\rc"),
            ("nul\u{0}", "nul\\x00"),
            ("del\u{7F}", "del\\x7F"),
            ("\u{9B}31m", "\\u{9B}31m"),
            ("TV \u{202E}evil", "TV \\u{202E}evil"),
            ("\u{2066}x\u{2069}", "\\u{2066}x\\u{2069}"),
            ("zero\u{200B}width", "zero\\u{200B}width"),
            ("\u{FEFF}bom", "\\u{FEFF}bom"),
            ("line\u{2028}sep", "line\\u{2028}sep"),
            ("lone ZWJ a\u{200D}b", "lone ZWJ a\\u{200D}b"),
        ])
    func escaped(input: String, expected: String) {
        #expect(TerminalText.sanitize(input) == expected)
    }

    @Test(
        "replaced style: one U+FFFD per sequence or scalar",
        arguments: [
            ("\u{1B}[31mRED\u{1B}[0m", "\u{FFFD}RED\u{FFFD}"),
            ("\u{1B}]0;title\u{7}after", "\u{FFFD}after"),
            ("\u{1B}]8;;http://x\u{1B}\\link", "\u{FFFD}link"),
            ("\u{1B}[2J", "\u{FFFD}"),
            ("\u{1B}[?25l", "\u{FFFD}"),
            ("\u{9B}31mX", "\u{FFFD}X"),
            ("\u{1B}(B", "\u{FFFD}"),
            ("\u{1B}7saved", "\u{FFFD}saved"),
            ("lone \u{1B}", "lone \u{FFFD}"),
            ("\u{1B}\u{1B}x", "\u{FFFD}\u{FFFD}"),  // ESC x is itself a two-character sequence
            ("\u{1B}\u{7}x", "\u{FFFD}\u{FFFD}x"),
            ("\u{1B}]unterminated", "\u{FFFD}"),
            ("a\nb\u{0}", "a\u{FFFD}b\u{FFFD}"),
            ("\u{202E}x", "\u{FFFD}x"),
        ])
    func replaced(input: String, expected: String) {
        #expect(TerminalText.sanitize(input, style: .replaced) == expected)
    }

    @Test(
        "legitimate names pass unchanged",
        arguments: [
            "Living Room TV",
            "Стас: Колонка",
            "居間のテレビ",
            "Cafe\u{301}",
            "👨‍👩‍👧 Family",
            "❤️ Speaker",
            "🏳️‍🌈 Pride",
            "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} Scotland",
            "🇫🇷 Salon",
            "👍🏽 ok",
            "می\u{200C}خواهم",
            "عربي TV",
            "C:\\path\\e[31m",
        ])
    func passesThrough(name: String) {
        #expect(TerminalText.sanitize(name) == name)
        #expect(TerminalText.sanitize(name, style: .replaced) == name)
        #expect(TerminalText.isSafe(name))
    }

    @Test(
        "no dangerous scalar survives either style",
        arguments: [
            "\u{1B}[31mRED\u{1B}[0m\u{1B}]0;title\u{7}\u{1B}[2J\n\t\u{0}\u{202E}",
            "\u{85}\u{9B}\u{9D}x\u{9C}\u{7F}\u{2067}\u{200B}\u{2029}",
            "tags without emoji \u{E0041}\u{E007F}, ZWJ at end \u{200D}",
        ])
    func nothingDangerousSurvives(input: String) {
        for style in [TerminalText.Style.escaped, .replaced] {
            let output = TerminalText.sanitize(input, style: style)
            let bad = output.unicodeScalars.filter {
                Self.forbidden.contains($0.value) || (0xE0000...0xE007F).contains($0.value) || $0.value == 0x200D
            }
            #expect(bad.isEmpty, "\(style): \(bad.map { String($0.value, radix: 16) })")
            #expect(TerminalText.isSafe(output))
            #expect(!output.contains("\n"))
        }
        #expect(!TerminalText.isSafe(input))
    }
}
