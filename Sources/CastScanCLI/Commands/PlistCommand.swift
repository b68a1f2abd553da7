import CastDiscovery
import CastSender

/// `cast-scan plist check FILE` and `cast-scan plist snippet`.
struct PlistCommand {
    let context: CommandContext

    init(_ context: CommandContext) { self.context = context }

    func run() throws -> ExitCode {
        let arguments = context.arguments
        let criteria = try ScanOptions.criteria(arguments, whenEmpty: .defaultMediaReceiver)
        let project = try SenderProjectOptions(arguments).project
        switch arguments.commandPath.dropFirst(2).first {
        case "check":
            guard let path = arguments.value(of: CastScanCommand.plistFile) else {
                throw UsageError.missingArgument(CastScanCommand.plistFile.name)
            }
            let report: InfoPlistReport
            do {
                report = try InfoPlistCheck(criteria: criteria, project: project).check(fileAt: path)
            } catch {
                throw CommandFailure(message: "cannot check \(path): \(error)", exitCode: .dataError)
            }
            if arguments.isSet(CastScanCommand.json) {
                context.console.write(try JSONOutput.string(report, format: .pretty))
            } else if report.findings.isEmpty {
                context.console.line("\(TerminalText.sanitize(path)): no findings; the Cast entries are complete.")
            } else {
                FindingPrinter(console: context.console).print(report.findings)
                context.console.line()
                context.console.line("Corrected entries:")
                context.console.write(report.snippet.xml)
            }
            return report.hasErrors ? .checkFailed : .ok
        case "snippet":
            let bluetooth = SDKAdvice(project: project).needsBluetoothUsageDescription
            context.console.write(InfoPlistSnippet(criteria: criteria, includeBluetoothUsageDescription: bluetooth).xml)
            return .ok
        default:
            throw UsageError.missingArgument("a plist subcommand: check or snippet")
        }
    }
}
