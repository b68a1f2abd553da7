import CastDiscovery
import CastReceiverPublisher

/// How `cast-scan publish` publishes, from the command line.
struct PublishOptions: Sendable {
    static let backend = OptionDeclaration.value(
        "backend", short: "b", valueName: "NAME",
        allowedValues: ReceiverPublishingBackend.allCases.map(\.rawValue),
        help: "the daemon API to publish through: avahi (entry groups, the default) or dnssd (DNSServiceRegister)")
    static let script = OptionDeclaration.value(
        "script", valueName: "FILE",
        help:
            "changes to make at given times, one a line ([SECONDS] ACTION DEVICE [ARGS]); - reads them from standard input as they come"
    )
    static let exactNames = OptionDeclaration.flag(
        "exact-names",
        help: "publish friendly names as the file gives them, without the \" (simulated)\" suffix")
    static let interface = OptionDeclaration.value(
        "interface", short: "i", valueName: "NAME", repeatable: true,
        help: "publish on this network interface only (default: every interface the daemon uses)")

    static let authRoot = OptionDeclaration.value(
        "auth-root", valueName: "FILE",
        help:
            "write the root certificate (PEM) the receivers' device authentication chains to, for senders to trust"
    )

    static let declarations = [backend, script, exactNames, interface, authRoot]

    var backend: ReceiverPublishingBackend
    /// `--script`: a file's path, or `-` for standard input; nil without it.
    var script: String?
    var exactNames: Bool
    var interfaceNames: [String]
    var interfaceIndexes: [UInt32]
    /// `--auth-root`: where to write the authentication root.
    var authRoot: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        backend = arguments.value(of: Self.backend).flatMap(ReceiverPublishingBackend.init(rawValue:)) ?? .avahi
        script = arguments.value(of: Self.script)
        exactNames = arguments.isSet(Self.exactNames)
        interfaceNames = arguments.values(of: Self.interface)
        authRoot = arguments.value(of: Self.authRoot)
        var indexes: [UInt32] = []
        for name in interfaceNames {
            guard let index = InterfaceName.index(of: name) else {
                throw .invalidValue(
                    option: Self.interface.displayName, value: name,
                    expected: "the name of a network interface of this host")
            }
            if !indexes.contains(index) { indexes.append(index) }
        }
        interfaceIndexes = indexes
    }
}
