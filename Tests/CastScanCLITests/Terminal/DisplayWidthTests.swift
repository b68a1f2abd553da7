import Testing

@testable import CastScanCLI

/// Terminal column widths, truncation and padding.
@Suite("DisplayWidth")
struct DisplayWidthTests {
    @Test(
        "width of strings",
        arguments: [
            ("", 0),
            ("abc", 3),
            ("Стас: Колонка", 13),
            ("居間のテレビ", 12),
            ("Cafe\u{301}", 4),
            ("e\u{301}\u{302}\u{303}", 1),
            ("\u{301}", 0),
            ("한국어", 6),
            ("\u{1100}\u{1161}\u{11A8}", 2),
            ("ＡＢ", 4),
            ("ｱｲ", 2),
            ("👨‍👩‍👧", 2),
            ("👨‍👩‍👧 Family", 9),
            ("🇫🇷", 2),
            ("🇫🇷🇩🇪", 4),
            ("❤", 1),
            ("❤️", 2),
            ("1️⃣", 2),
            ("👍🏽", 2),
            ("😀x", 3),
            ("a\u{200B}b", 2),
            ("…", 1),
            ("𠀋", 2),
            ("\u{FE0F}", 0),
        ])
    func widths(text: String, expected: Int) {
        #expect(DisplayWidth.width(of: text) == expected)
    }

    @Test(
        "wide-range table boundaries",
        arguments: [
            (0x10FF, false), (0x1100, true), (0x115F, true), (0x1160, false),
            (0x2E7F, false), (0x2E80, true), (0x4E00, true), (0x9FFF, true),
            (0xABFF, false), (0xAC00, true), (0xD7A3, true), (0xD7A4, false),
            (0xFF00, false), (0xFF01, true), (0xFF60, true), (0xFF61, false),
            (0x1F1E5, false), (0x1F1E6, true), (0x1F1FF, true),
            (0x1F300, true), (0x1F64F, true), (0x1F650, false),
            (0x1F900, false), (0x1F90C, true), (0x1F9FF, true),
            (0x20000, true), (0x3FFFD, true), (0x3FFFE, false), (0xE0001, false),
        ])
    func tableBoundaries(value: UInt32, wide: Bool) throws {
        let scalar = try #require(Unicode.Scalar(value))
        #expect(DisplayWidth.isWide(scalar) == wide)
    }

    @Test("the wide table is sorted and disjoint")
    func tableIsSorted() {
        let ranges = DisplayWidth.wideRanges
        for (range, next) in zip(ranges, ranges.dropFirst()) {
            #expect(range.first <= range.last)
            #expect(range.last < next.first)
        }
    }

    @Test(
        "truncate on grapheme boundaries",
        arguments: [
            ("Living Room", 20, "Living Room"),
            ("Living Room", 11, "Living Room"),
            ("Living Room", 10, "Living Ro…"),
            ("Living Room", 1, "…"),
            ("Living Room", 0, ""),
            ("居間のテレビ", 7, "居間の…"),
            ("居間のテレビ", 6, "居間…"),
            ("Cafe\u{301} au lait", 5, "Cafe\u{301}…"),
            ("👨‍👩‍👧👨‍👩‍👧", 3, "👨‍👩‍👧…"),
            ("🇫🇷🇩🇪", 3, "🇫🇷…"),
        ])
    func truncate(text: String, width: Int, expected: String) {
        let result = DisplayWidth.truncate(text, toWidth: width)
        #expect(result == expected)
        #expect(DisplayWidth.width(of: result) <= max(width, 0))
    }

    @Test(
        "pad to a width",
        arguments: [
            ("ab", 4, DisplayWidth.Alignment.left, "ab  "),
            ("ab", 4, .right, "  ab"),
            ("居間", 5, .left, "居間 "),
            ("e\u{301}", 3, .right, "  e\u{301}"),
            ("toolong", 3, .left, "toolong"),
        ])
    func pad(text: String, width: Int, alignment: DisplayWidth.Alignment, expected: String) {
        #expect(DisplayWidth.pad(text, toWidth: width, alignment: alignment) == expected)
    }
}
