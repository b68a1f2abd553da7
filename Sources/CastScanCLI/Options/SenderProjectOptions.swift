import CastSender

/// The app project described on the command line: `--sdk`, `--xcode`, `--ios` (the deployment
/// target) and `--no-bluetooth-variant`.
struct SenderProjectOptions {
    var sdk: SDKVersion?
    var xcode: SDKVersion?
    var deploymentTarget: SDKVersion?
    var noBluetoothVariant: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        sdk = try Self.version(arguments, Self.sdk)
        xcode = try Self.version(arguments, Self.xcode)
        deploymentTarget = try Self.version(arguments, Self.ios)
        noBluetoothVariant = arguments.isSet(Self.noBluetoothVariant)
    }

    /// The SDK version a project is assumed to use when `--sdk` is not given, as `--help` says.
    static let defaultSDK = SDKVersion(4, 8, 3)

    /// The project; ``defaultSDK`` stands in for a missing `--sdk`.
    var project: SenderProject {
        let sdk = sdk ?? Self.defaultSDK
        return SenderProject(
            sdkVersion: sdk, xcodeVersion: xcode, deploymentTarget: deploymentTarget ?? SDKVersion(14, 0, 0),
            usesNoBluetoothVariant: noBluetoothVariant)
    }

    static func version(_ arguments: ParsedArguments, _ option: OptionDeclaration) throws(UsageError) -> SDKVersion? {
        try arguments.value(of: option, expected: "a version such as 4.8.3") { try? SDKVersion(parsing: $0) }
    }
}
