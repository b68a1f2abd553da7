import CastSender

/// `cast-scan advise`: what a Cast SDK, Xcode and deployment-target combination means for an app.
struct AdviseCommand: Command {
    static let declaration = CommandDeclaration(
        name: "advise", abstract: "Advice for a Cast SDK, Xcode and deployment target combination.",
        discussion: "Exit status 2 when a finding is an error.",
        options: [
            SenderProjectOptions.sdk, SenderProjectOptions.xcode, SenderProjectOptions.ios,
            SenderProjectOptions.noBluetoothVariant, JSONOutput.option,
        ],
        inheritsOptions: false)

    let context: CommandContext
    let project: SenderProject

    init(_ context: CommandContext) throws {
        self.context = context
        project = try SenderProjectOptions(context.arguments).project
    }

    func run() throws -> ExitCode {
        let findings = SDKAdvice(project: project).findings
        if context.arguments.isSet(JSONOutput.option) {
            context.console.write(try JSONOutput.string(findings, format: .pretty))
        } else if findings.isEmpty {
            context.console.line("No advice: this combination has no known problem.")
        } else {
            FindingPrinter(console: context.console).print(findings)
        }
        return ExitCode(findings: findings)
    }
}
