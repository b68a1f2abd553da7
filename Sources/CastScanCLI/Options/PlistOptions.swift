import CastDiscovery
import CastSender

/// What the plist commands check an Info.plist against: the application IDs (`--app-id`,
/// default the Default Media Receiver) and the app's SDK, deployment target and Xcode.
struct PlistOptions: Sendable {
    let criteria: DiscoveryCriteria
    let project: SenderProject

    init(_ arguments: ParsedArguments) throws(UsageError) {
        criteria = try ScanOptions.criteria(arguments, whenEmpty: .defaultMediaReceiver)
        project = try SenderProjectOptions(arguments).project
    }
}
