/// A command of `cast-scan`: what it accepts, the subcommands below it, and how it runs.
///
/// The declarations the parser and the help read are derived from these types, starting at the
/// root, ``ListCommand``: a command is declared only by a type that can also run it.
protocol Command: Sendable {
    /// The command's name, help and options. Its subcommands are not listed here: they come
    /// from ``subcommands``.
    static var declaration: CommandDeclaration { get }

    /// The commands below this one, in the order help lists them.
    static var subcommands: [any Command.Type] { get }

    /// The command for a parsed command line: reads its options, throwing a ``UsageError`` for
    /// a mistake in them (or a ``CommandFailure``).
    init(_ context: CommandContext) throws

    /// Does what the command is for and returns the exit status.
    func run() async throws -> ExitCode

    /// Whether `SIGINT` and `SIGTERM` end the command at once, with status 130 or 143 (true,
    /// the default), or come to it as ``CommandContext/termination`` to end as it sees fit.
    static var endsOnSignal: Bool { get }

    /// Whether standard output is a live stream of lines (true) that drops the oldest lines for
    /// a reader slower than the events, or output that waits whole for its reader (false, the
    /// default).
    static var streamsOutput: Bool { get }
}

extension Command {
    static var subcommands: [any Command.Type] { [] }
    static var endsOnSignal: Bool { true }
    static var streamsOutput: Bool { false }
}
