import CastDiscoveryReporting

/// `cast-scan report send`: delivers everything stored, says how many were sent and failed.
struct ReportSendCommand: Command {
    static let declaration = CommandDeclaration(
        name: "send", abstract: "Send every stored event to the collector now.",
        discussion: "Exit status 0 when nothing is left in the spool, 75 when some events remain or the spool "
            + "stayed locked by another process (try again). One process sends from a spool at a time: "
            + "during another's send (a watch's), this waits for it.",
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
        /// Events the collector refused even alone as too large (413), set aside in the spool.
        var refused: Int
        var remaining: Int
        var error: String?
    }

    func run() async throws -> ExitCode {
        let reporter = try options.reporter()
        let before = try await ReportOptions.status(reporter)
        ReportOptions.announceSetAside(before, console: context.console)
        try await ReportOptions.applyLimits(reporter)
        let result = await reporter.sendStored()
        let remaining = try await ReportOptions.status(reporter).pending
        await ReportOptions.finish(reporter, console: context.console)
        if context.arguments.isSet(JSONOutput.option) {
            context.console.write(
                try JSONOutput.string(
                    Output(
                        sent: result.delivered, failed: result.failed, refused: result.refused, remaining: remaining,
                        error: result.error),
                    format: .pretty))
        } else {
            let reason = result.error.map { " (\(TerminalText.sanitize($0)))" } ?? ""
            let refused = result.refused > 0 ? ", refused as too large \(result.refused) (set aside in the spool)" : ""
            context.console.line(
                "sent \(result.delivered), failed \(result.failed)\(reason)\(refused), \(remaining) left in the spool")
        }
        if result.refused > 0 { ReportOptions.announceRefused(result.refused, console: context.console) }
        return remaining == 0 ? .ok : .eventsRemain
    }
}
