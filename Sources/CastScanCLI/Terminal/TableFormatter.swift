/// Lays out rows of text as an aligned table for a terminal.
///
/// Cells must already be display-safe, single-line text (see `TerminalText`). Columns are as
/// wide as their widest cell or header, up to the column's maximum; longer cells are cut with an
/// ellipsis. Widths are measured in terminal columns (`DisplayWidth`), so wide and combining
/// characters keep the columns aligned. Every line, the header and rule included, has the same
/// display width unless `trimsTrailingSpaces` is set.
struct TableFormatter: Sendable {
    /// One column of the table.
    struct Column: Sendable, Hashable {
        /// The header text.
        var header: String
        /// The widest the column may be, in terminal columns; `nil` for no limit.
        var maxWidth: Int?
        /// How cells (and the header) sit within the column; `.right` suits numbers.
        var alignment: DisplayWidth.Alignment

        /// Creates a column.
        init(_ header: String, maxWidth: Int? = nil, alignment: DisplayWidth.Alignment = .left) {
            self.header = header
            self.maxWidth = maxWidth
            self.alignment = alignment
        }
    }

    /// The columns, left to right.
    var columns: [Column]
    /// Printed between two columns.
    var separator: String
    /// Whether the first line is the header row.
    var showsHeader: Bool
    /// When set, a line of this character under the header, as wide as each column.
    var rule: Character?
    /// Whether trailing spaces are removed from each line (lines then differ in width).
    var trimsTrailingSpaces: Bool

    /// Creates a formatter for `columns`.
    init(
        columns: [Column],
        separator: String = "  ",
        showsHeader: Bool = true,
        rule: Character? = nil,
        trimsTrailingSpaces: Bool = false
    ) {
        self.columns = columns
        self.separator = separator
        self.showsHeader = showsHeader
        self.rule = rule
        self.trimsTrailingSpaces = trimsTrailingSpaces
    }

    /// The width of each column for `rows`, in terminal columns.
    ///
    /// A row shorter than `columns` is treated as ending in empty cells; extra cells are ignored.
    func columnWidths(for rows: [[String]]) -> [Int] {
        columns.indices.map { index in
            let column = columns[index]
            var widest = showsHeader ? DisplayWidth.width(of: column.header) : 0
            for row in rows where index < row.count {
                widest = max(widest, DisplayWidth.width(of: row[index]))
            }
            if let limit = column.maxWidth { widest = min(widest, max(limit, 1)) }
            return widest
        }
    }

    /// The table as lines without line terminators: the header, the rule, then one per row.
    func lines(for rows: [[String]]) -> [String] {
        let widths = columnWidths(for: rows)
        var lines: [String] = []
        if showsHeader {
            lines.append(line(columns.map(\.header), widths: widths))
            if let rule {
                lines.append(finish(widths.map { String(repeating: rule, count: $0) }.joined(separator: separator)))
            }
        }
        for row in rows {
            assert(row.count <= columns.count, "a row has more cells than the table has columns")
            lines.append(line(row, widths: widths))
        }
        return lines
    }

    /// The table as text, each line ended by a newline.
    func render(_ rows: [[String]]) -> String {
        lines(for: rows).map { $0 + "\n" }.joined()
    }

    private func line(_ cells: [String], widths: [Int]) -> String {
        let fitted = columns.indices.map { index in
            let cell = index < cells.count ? cells[index] : ""
            let cut = DisplayWidth.truncate(cell, toWidth: widths[index])
            return DisplayWidth.pad(cut, toWidth: widths[index], alignment: columns[index].alignment)
        }
        return finish(fitted.joined(separator: separator))
    }

    private func finish(_ line: String) -> String {
        guard trimsTrailingSpaces else { return line }
        var trimmed = Substring(line)
        while trimmed.last == " " { trimmed.removeLast() }
        return String(trimmed)
    }
}
