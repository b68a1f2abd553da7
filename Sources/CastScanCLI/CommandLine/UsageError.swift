/// A mistake on the command line. Its `message` is one line, safe to print to a terminal;
/// the tool exits with `ExitCode.usage` (64).
enum UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An option that the command does not declare, with the closest declared one if any.
    case unknownOption(String, suggestion: String?)
    /// A word in subcommand position that names no subcommand, with the closest one if any.
    case unknownSubcommand(String, suggestion: String?)
    /// An option that needs a value was given none (`--app-id` at the end of the line, or
    /// followed by another option). `usage` is how it should be written (`--app-id <id>`).
    case missingValue(option: String, usage: String)
    /// A flag was given a value (`--json=yes`).
    case unexpectedValue(option: String)
    /// An option that may appear only once appeared again.
    case repeatedOption(String)
    /// A positional argument the command does not take.
    case unexpectedArgument(String)
    /// A required positional argument is missing; the payload is its name.
    case missingArgument(String)
    /// An option's value is not acceptable. `expected` completes "… must be": e.g.
    /// `one of granted, denied, undetermined` or `a number of seconds`.
    case invalidValue(option: String, value: String, expected: String)
    /// Two options that cannot be combined.
    case conflictingOptions(String, String)
    /// An option that draws on a terminal (`watch --table`) while standard output is not one.
    case needsTerminal(option: String)
    /// An option that means something only beside another (`--cast-root` without `--status`).
    case needsOption(option: String, needed: String)
    /// An option given before a subcommand that does not take it.
    case optionNotAccepted(option: String, command: String)
    /// An environment variable the command reads holds a value it cannot use; `problem` says
    /// what is wrong without showing the value (it may be a secret).
    case invalidEnvironment(variable: String, problem: String)
    /// Option values that each parse but describe an app that cannot exist (iOS 13 with Cast
    /// SDK 4.8.3); the payload is the reason, naming the minimum.
    case impossibleApp(String)

    /// The value error for `value` when only `allowed` values are accepted.
    static func invalidValue(option: String, value: String, allowed: [String]) -> UsageError {
        .invalidValue(option: option, value: value, expected: "one of " + allowed.joined(separator: ", "))
    }

    /// One line explaining the mistake, e.g.
    /// `--permission must be one of granted, denied, undetermined (got 'maybe')`.
    ///
    /// Whatever the user typed is passed through `TerminalText`, so the line holds no control
    /// characters.
    var message: String {
        switch self {
        case .unknownOption(let option, let suggestion):
            return "unknown option \(quoted(option))" + didYouMean(suggestion)
        case .unknownSubcommand(let word, let suggestion):
            return "unknown subcommand \(quoted(word))" + didYouMean(suggestion)
        case .missingValue(_, let usage):
            return "missing value for \(quoted(usage))"
        case .unexpectedValue(let option):
            return "option \(quoted(option)) does not take a value"
        case .repeatedOption(let option):
            return "option \(quoted(option)) given more than once"
        case .unexpectedArgument(let argument):
            return "unexpected argument \(quoted(argument))"
        case .missingArgument(let name):
            return "missing argument <\(safe(name))>"
        case .invalidValue(let option, let value, let expected):
            return "\(safe(option)) must be \(safe(expected)) (got \(quoted(value)))"
        case .needsTerminal(let option):
            return
                "\(safe(option)) redraws in place and needs standard output to be a terminal; use --jsonl for a pipe or a file"
        case .conflictingOptions(let first, let second):
            return "\(quoted(first)) and \(quoted(second)) cannot be used together"
        case .needsOption(let option, let needed):
            return "\(quoted(option)) is used only with \(quoted(needed))"
        case .optionNotAccepted(let option, let command):
            return "option \(quoted(option)) does not apply to \(quoted(command))"
        case .invalidEnvironment(let variable, let problem):
            return "$\(safe(variable)) \(safe(problem))"
        case .impossibleApp(let reason):
            return safe(reason)
        }
    }

    /// Same as `message`.
    var description: String { message }

    private func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { " (did you mean \(quoted($0))?)" } ?? ""
    }

    private func quoted(_ text: String) -> String { "'" + safe(text) + "'" }

    private func safe(_ text: String) -> String { TerminalText.sanitize(text) }
}
