/// `cast-scan plist`: only a group; `check` and `snippet` do the work.
struct PlistCommand: Command {
    static let declaration = CommandDeclaration(
        name: "plist", abstract: "Check or write an iOS app's Info.plist entries.", inheritsOptions: false)

    static var subcommands: [any Command.Type] { [PlistCheckCommand.self, PlistSnippetCommand.self] }

    init(_ context: CommandContext) {}

    func run() throws -> ExitCode {
        throw UsageError.missingArgument("a plist subcommand: check or snippet")
    }
}
