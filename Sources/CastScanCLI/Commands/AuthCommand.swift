/// `cast-scan auth`: only a group; `verify` does the work.
struct AuthCommand: Command {
    static let declaration = CommandDeclaration(
        name: "auth", abstract: "Check a receiver's device authentication offline, from saved files.",
        inheritsOptions: false)

    static var subcommands: [any Command.Type] { [AuthVerifyCommand.self] }

    init(_ context: CommandContext) {}

    func run() throws -> ExitCode {
        throw UsageError.missingArgument("an auth subcommand: verify")
    }
}
