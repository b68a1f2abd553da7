import CastDiscovery
import CastSender

/// `cast-scan plist snippet`: the Info.plist keys Cast discovery needs, as XML.
struct PlistSnippetCommand: Command {
    static let declaration = CommandDeclaration(
        name: "snippet", abstract: "Print the Info.plist keys Cast discovery needs, as XML.",
        options: [
            ScanOptions.appID, SenderProjectOptions.sdk, SenderProjectOptions.ios,
            SenderProjectOptions.noBluetoothVariant,
        ])

    let context: CommandContext
    let options: PlistOptions

    init(_ context: CommandContext) throws {
        self.context = context
        options = try PlistOptions(context.arguments)
    }

    func run() throws -> ExitCode {
        let bluetooth = SDKAdvice(project: options.project).needsBluetoothUsageDescription
        context.console.write(
            InfoPlistSnippet(criteria: options.criteria, includeBluetoothUsageDescription: bluetooth).xml)
        return .ok
    }
}
