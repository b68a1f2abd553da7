@testable import CastScanCLI

/// Reads the device table back from `cast-scan`'s output, by terminal columns
/// (`DisplayWidth`), to check its layout and its cells.
struct TableLayout {
    /// The header line and the row lines.
    var header: String
    var rows: [String]
    /// The display column at which each header word starts.
    var columnStarts: [Int]
    /// The header words.
    var columnNames: [String]

    /// Finds the table in `output`: the line starting with `NAME `, then every line up to the
    /// summary (`N device(s) (...)` or `The app sees ...`). Nil when there is no table.
    init?(output: String) {
        let lines = ProcessResult.lines(output)
        guard let headerIndex = lines.firstIndex(where: { $0.hasPrefix("NAME ") }) else { return nil }
        header = lines[headerIndex]
        rows = Array(lines[(headerIndex + 1)...].prefix { !Self.isSummary($0) })
        var starts: [Int] = []
        var names: [String] = []
        var previous: Character = " "
        for (column, character) in Self.cells(of: header) {
            if character != " " && previous == " " {
                starts.append(column)
                names.append("")
            }
            if character != " " { names[names.count - 1].append(character) }
            previous = character
        }
        columnStarts = starts
        columnNames = names
    }

    static func isSummary(_ line: String) -> Bool {
        line.hasPrefix("The app sees ")
            || line.range(of: #"^[0-9]+ devices? \("#, options: .regularExpression) != nil
    }

    /// Each character of `line` with the display column it starts at.
    static func cells(of line: String) -> [(column: Int, character: Character)] {
        var column = 0
        var result: [(Int, Character)] = []
        for character in line {
            result.append((column, character))
            column += DisplayWidth.width(of: character)
        }
        return result
    }

    /// The problems with `line`'s alignment: every column after the first must start exactly at
    /// its header's display column, right after at least two spaces (the separator); and no
    /// line may end in a space (the table trims them).
    func alignmentProblems(of line: String) -> [String] {
        var problems: [String] = []
        let cells = Self.cells(of: line)
        if line.last == " " { problems.append("ends with a space") }
        for (index, start) in columnStarts.enumerated().dropFirst() {
            guard let position = cells.firstIndex(where: { $0.column == start }) else {
                problems.append("no character starts at display column \(start) (\(columnNames[index]))")
                continue
            }
            if cells[position].character == " " {
                problems.append("column \(columnNames[index]) starts with a space at \(start)")
            }
            if position < 2 || cells[position - 1].character != " " || cells[position - 2].character != " " {
                problems.append("column \(columnNames[index]) at \(start) is not preceded by the two-space separator")
            }
        }
        return problems
    }

    /// The cells of `line`, cut at the header's column starts, trailing spaces removed.
    func cells(of line: String) -> [String: String] {
        var values = Array(repeating: "", count: columnStarts.count)
        for (column, character) in Self.cells(of: line) {
            let index = columnStarts.lastIndex(where: { $0 <= column }) ?? 0
            values[index].append(character)
        }
        var result: [String: String] = [:]
        for (name, value) in zip(columnNames, values) {
            var trimmed = Substring(value)
            while trimmed.last == " " { trimmed.removeLast() }
            result[name] = String(trimmed)
        }
        return result
    }

    /// The cells of every row, in order.
    var rowCells: [[String: String]] { rows.map { cells(of: $0) } }
}
