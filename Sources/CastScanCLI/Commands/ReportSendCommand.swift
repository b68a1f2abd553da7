import CastDiscoveryReporting

/// `cast-scan report send`: delivers everything stored, says how many were sent and failed.
struct ReportSendCommand: Command {
    static let declaration = CommandDeclaration(
        name: "send", abstract: "Send every stored event to the collector now.",
        discussion: "Exit status 0 when nothing is left in the spool, 75 when some events remain.",
        options: ReportOptions.declarations + [JSONOutput.option])

    let context: CommandContext
    let options: ReportOptions

    init(_ context: CommandContext) throws {
        self.context = context
        options = try ReportOptions(context.arguments, environment: context.environment, needsCollector: true)
    }

    /// The `--json` output.
    struct Output: Encodable {
        var sent: Int
        var failed: Int
        var remaining: Int
        var error: String?
    }

    func run() async throws -> ExitCode {
        let reporter = try options.reporter()
        let before = try await ReportOptions.status(reporter)
        ReportOptions.announceSetAside(before, console: context.console)
        let result = await reporter.sendStored()
        let remaining = try await ReportOptions.status(reporter).pending
        await reporter.finish()
        if context.arguments.isSet(JSONOutput.option) {
            context.console.write(try JSONOutput.string(
                Output(sent: result.delivered, failed: result.failed, remaining: remaining, error: result.error), format: .pretty))
        } else {
            let reason = result.error.map { " (\(TerminalText.sanitize($0)))" } ?? ""
            context.console.line("sent \(result.delivered), failed \(result.failed)\(reason), \(remaining) left in the spool")
        }
        return remaining == 0 ? .ok : .eventsRemain
    }
}
