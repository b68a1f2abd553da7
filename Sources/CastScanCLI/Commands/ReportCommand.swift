/// `cast-scan report`: only a group; `send` and `status` do the work.
struct ReportCommand: Command {
    static let declaration = CommandDeclaration(
        name: "report", abstract: "Send or inspect the device events stored for a collector (watch --report).",
        inheritsOptions: false)

    static var subcommands: [any Command.Type] { [ReportSendCommand.self, ReportStatusCommand.self] }

    init(_ context: CommandContext) {}

    func run() throws -> ExitCode {
        throw UsageError.missingArgument("a report subcommand: send or status")
    }
}
