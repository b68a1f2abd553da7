import Testing

@testable import CastScanCLI

/// Aligned tables with wide, combining and over-long cells.
@Suite("TableFormatter")
struct TableFormatterTests {
    static let longName = String(repeating: "Very long name ", count: 20)

    static let rows: [[String]] = [
        ["Стас: Колонка", "Google Home", "192.168.1.20", "8009"],
        ["居間のテレビ", "Chromecast", "192.168.1.21", "8009"],
        ["Cafe\u{301}", "Nest Audio", "fe80::1%eth0", "42"],
        ["👨‍👩‍👧 Family", "Google Nest Hub", "10.0.0.7", "8009"],
        [longName, "Chromecast Ultra", "10.0.0.8", "10001"],
    ]

    static let formatter = TableFormatter(
        columns: [
            .init("NAME", maxWidth: 24),
            .init("MODEL"),
            .init("ADDRESS"),
            .init("PORT", alignment: .right),
        ],
        rule: "-")

    @Test("every line has the same display width")
    func sameWidth() {
        #expect(Self.longName.count == 300)
        let lines = Self.formatter.lines(for: Self.rows)
        #expect(lines.count == Self.rows.count + 2)
        let widths = lines.map { DisplayWidth.width(of: $0) }
        #expect(Set(widths).count == 1, "\(widths)")
        let expectedWidth = 24 + 2 + 16 + 2 + 12 + 2 + 5
        #expect(widths.first == expectedWidth)
    }

    @Test("columns start at the same display column on every line")
    func columnsAligned() {
        for line in Self.formatter.lines(for: Self.rows) {
            // The model column starts after the 24-column name and the two-space separator.
            var prefix = ""
            for character in line {
                if DisplayWidth.width(of: prefix) >= 26 { break }
                prefix.append(character)
            }
            #expect(DisplayWidth.width(of: prefix) == 26, "\(line)")
            #expect(prefix.hasSuffix("  "), "\(line)")
        }
    }

    @Test(
        "exact layout: header, rule, right-aligned numbers",
        arguments: [
            (0, "a       1"),
            (1, "居間   22"),
            (2, "e\u{301}x    333"),
        ])
    func exactLayout(row: Int, expected: String) {
        let table = TableFormatter(columns: [.init("NAME"), .init("N", alignment: .right)], rule: "-")
        let rows = [["a", "1"], ["居間", "22"], ["e\u{301}x", "333"]]
        let lines = table.lines(for: rows)
        #expect(Array(lines.prefix(2)) == ["NAME    N", "----  ---"])
        #expect(lines[2 + row] == expected)
    }

    @Test(
        "long cells are cut with an ellipsis at the column maximum",
        arguments: [(10, "Very long…"), (1, "…"), (300, longName)])
    func truncation(maxWidth: Int, expectedCell: String) {
        let table = TableFormatter(columns: [.init("N", maxWidth: maxWidth)], showsHeader: false)
        #expect(table.lines(for: [[Self.longName]]) == [expectedCell])
    }

    @Test("short rows get empty cells; trimming removes trailing spaces")
    func shortRowsAndTrimming() {
        let columns: [TableFormatter.Column] = [.init("A"), .init("B")]
        #expect(TableFormatter(columns: columns).lines(for: [["x"]]) == ["A  B", "x   "])
        #expect(TableFormatter(columns: columns, trimsTrailingSpaces: true).lines(for: [["x"]]) == ["A  B", "x"])
        #expect(TableFormatter(columns: columns).render([["x", "y"]]) == "A  B\nx  y\n")
    }
}
