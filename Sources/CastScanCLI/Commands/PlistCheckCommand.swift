import CastDiscovery
import CastSender

/// `cast-scan plist check FILE`: what an iOS app's Info.plist lacks for Cast discovery.
struct PlistCheckCommand: Command {
    static let file = PositionalDeclaration("FILE", help: "the app's Info.plist (XML or binary)")

    static let declaration = CommandDeclaration(
        name: "check", abstract: "Check an iOS app's Info.plist for what Cast discovery needs.",
        discussion: "Exit status 2 when a finding is an error.",
        options: [
            ScanOptions.appID, SenderProjectOptions.sdk, SenderProjectOptions.ios, SenderProjectOptions.xcode,
            SenderProjectOptions.noBluetoothVariant, JSONOutput.option,
        ],
        positionals: [file])

    let context: CommandContext
    let options: PlistOptions

    init(_ context: CommandContext) throws {
        self.context = context
        options = try PlistOptions(context.arguments)
    }

    func run() throws -> ExitCode {
        let arguments = context.arguments
        guard let path = arguments.value(of: Self.file) else {
            throw UsageError.missingArgument(Self.file.name)
        }
        let report: InfoPlistReport
        do {
            report = try InfoPlistCheck(criteria: options.criteria, project: options.project).check(fileAt: path)
        } catch {
            throw CommandFailure(message: "cannot check \(path): \(error)", exitCode: .dataError)
        }
        if arguments.isSet(JSONOutput.option) {
            context.console.write(try JSONOutput.string(report, format: .pretty))
        } else if report.findings.isEmpty {
            context.console.line("\(TerminalText.sanitize(path)): no findings; the Cast entries are complete.")
        } else {
            FindingPrinter(console: context.console).print(report.findings)
            context.console.line()
            context.console.line("Corrected entries:")
            context.console.write(report.snippet.xml)
        }
        return ExitCode(findings: report.findings)
    }
}
