import CastSender

/// `cast-scan advise`: what a Cast SDK, Xcode and deployment-target combination means for an app.
struct AdviseCommand {
    let context: CommandContext

    init(_ context: CommandContext) { self.context = context }

    func run() throws -> ExitCode {
        let project = try SenderProjectOptions(context.arguments).project
        let findings = SDKAdvice(project: project).findings
        if context.arguments.isSet(CastScanCommand.json) {
            context.console.write(try JSONOutput.string(findings, format: .pretty))
        } else if findings.isEmpty {
            context.console.line("No advice: this combination has no known problem.")
        } else {
            FindingPrinter(console: context.console).print(findings)
        }
        return .ok
    }
}
