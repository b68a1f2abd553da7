#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether output to one stream may use ANSI colour and live progress lines, with a small
/// colour helper that does nothing when colour is off.
///
/// Colour and progress lines (redrawn in place) are used only when the stream is a terminal,
/// `NO_COLOR` is unset or empty (see https://no-color.org; `cast-scan` also takes it as a wish
/// for plain output, so it turns progress off too), and `TERM` is not `dumb`. An unset `TERM`
/// does not disable either.
struct OutputStyle: Sendable, Hashable {
    /// A text attribute or foreground colour.
    enum Color: Sendable, Hashable, CaseIterable {
        case bold, dim, red, green, yellow, blue, magenta, cyan, gray

        /// The SGR parameter that turns the attribute on.
        var parameter: String {
            switch self {
            case .bold: "1"
            case .dim: "2"
            case .red: "31"
            case .green: "32"
            case .yellow: "33"
            case .blue: "34"
            case .magenta: "35"
            case .cyan: "36"
            case .gray: "90"
            }
        }
    }

    /// Whether ANSI colour and attributes may be written.
    var usesColor: Bool
    /// Whether progress lines, redrawn in place, may be written.
    var showsProgress: Bool

    /// Creates a style with explicit settings.
    init(usesColor: Bool, showsProgress: Bool) {
        self.usesColor = usesColor
        self.showsProgress = showsProgress
    }

    /// No colour, no progress: for pipes, files and tests.
    static let plain = OutputStyle(usesColor: false, showsProgress: false)

    /// The style for a stream, given whether it is a terminal and the process environment.
    init(isTerminal: Bool, environment: [String: String]) {
        let capable = isTerminal && environment["TERM"] != "dumb"
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        self.init(usesColor: capable && !noColor, showsProgress: capable && !noColor)
    }

    /// The style for the open file descriptor `fileDescriptor` (1 for standard output, 2 for
    /// standard error), asking `isatty(3)`.
    static func detect(fileDescriptor: Int32, environment: [String: String]) -> OutputStyle {
        OutputStyle(isTerminal: isatty(fileDescriptor) == 1, environment: environment)
    }

    /// `text` wrapped in the escape sequences for `color`, or `text` unchanged when colour is off.
    ///
    /// `text` must already be display-safe (see `TerminalText`).
    func paint(_ text: String, _ color: Color) -> String {
        guard usesColor, !text.isEmpty else { return text }
        return "\u{1B}[" + color.parameter + "m" + text + "\u{1B}[0m"
    }

    /// A progress line that replaces the current terminal line (carriage return, erase line,
    /// `text`, no newline), or "" when progress is off.
    func progress(_ text: String) -> String {
        showsProgress ? "\r\u{1B}[2K" + text : ""
    }

    /// Erases the current progress line, or "" when progress is off.
    func clearProgress() -> String {
        showsProgress ? "\r\u{1B}[2K" : ""
    }
}
