import FoundationEssentials

/// What every command gets: its parsed arguments, the environment and where to write.
struct CommandContext: Sendable {
    var arguments: ParsedArguments
    var environment: [String: String]
    var console: Console
    /// `SIGINT` and `SIGTERM`, for a command that ends cleanly on them (``Command/endsOnSignal``
    /// false); any other command is ended by them with status 130 or 143.
    var termination: AsyncStream<Int32>
    /// The time of day, read by the executable's entry point: the time a device-authentication
    /// check is made at.
    var wallClock: @Sendable () -> Date
}
