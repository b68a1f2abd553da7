import CastDiscovery
import CastSender
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `cast-scan simulate SCRIPT`: runs a sender scenario and prints each step.
struct SimulateCommand: Command {
    static let script = PositionalDeclaration("SCRIPT", help: "a sender scenario file (Fixtures/scenarios/*.json)")

    static let declaration = CommandDeclaration(
        name: "simulate", abstract: "Run a sender scenario script and print each step.",
        options: [JSONOutput.option, SenderProjectOptions.xcode], positionals: [script], inheritsOptions: false)

    let context: CommandContext

    init(_ context: CommandContext) { self.context = context }

    func run() async throws -> ExitCode {
        guard let path = context.arguments.value(of: Self.script) else {
            throw UsageError.missingArgument(Self.script.name)
        }
        var scenario: SenderScenario
        do {
            scenario = try await SenderScenario.load(contentsOf: URL(fileURLWithPath: RawPath.absolute(path)))
        } catch {
            throw CommandFailure(message: "\(error)", exitCode: .dataError)
        }
        // --xcode stands in for the scenario's app.xcode.
        if let xcode = try SenderProjectOptions.version(context.arguments, SenderProjectOptions.xcode) {
            scenario.configuration.xcodeVersion = xcode
        }
        let json = context.arguments.isSet(JSONOutput.option)
        let console = context.console
        let run = scenario.run { index, step, snapshot in
            guard !json else { return }
            console.line("\(index + 1). \(step.input)")
            console.line("   " + Self.sanitizeLines(snapshot.description, indent: "   "))
        }
        if json {
            console.write(try JSONOutput.string(run.steps, format: .pretty))
        }
        if let mismatch = run.mismatch {
            console.errorLine("cast-scan: " + Self.sanitizeLines(String(describing: mismatch)))
            return .checkFailed
        }
        return .ok
    }

    /// `text` made safe line by line, its own line breaks kept (followed by `indent`): a line
    /// break inside a value is escaped by `TerminalText`, so it cannot start a line of its own.
    static func sanitizeLines(_ text: String, indent: String = "") -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { TerminalText.sanitize(String($0)) }
            .joined(separator: "\n" + indent)
    }
}
