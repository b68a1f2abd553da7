import CastDiscovery
import CastSender

/// `cast-scan plist snippet`: the Info.plist keys Cast discovery needs, as XML.
struct PlistSnippetCommand: Command {
    static let declaration = CommandDeclaration(
        name: "snippet", abstract: "Print the Info.plist keys Cast discovery needs, as XML.",
        options: [ScanOptions.appID, SenderProjectOptions.sdk, SenderProjectOptions.ios, SenderProjectOptions.noBluetoothVariant])

    let context: CommandContext
    let criteria: DiscoveryCriteria
    let project: SenderProject

    init(_ context: CommandContext) throws {
        self.context = context
        criteria = try ScanOptions.criteria(context.arguments, whenEmpty: .defaultMediaReceiver)
        project = try SenderProjectOptions(context.arguments).project
    }

    func run() throws -> ExitCode {
        let bluetooth = SDKAdvice(project: project).needsBluetoothUsageDescription
        context.console.write(InfoPlistSnippet(criteria: criteria, includeBluetoothUsageDescription: bluetooth).xml)
        return .ok
    }
}
