/// What every command gets: its parsed arguments, the environment and where to write.
struct CommandContext: Sendable {
    var arguments: ParsedArguments
    var environment: [String: String]
    var console: Console
}
