import CastChannel
import CastDiscovery
import FoundationEssentials

/// `cast-scan status HOST[:PORT]...`: asks receivers directly over the Cast channel (no
/// discovery) what they play and at what volume, or why they cannot be asked, and whether
/// each is a genuine Cast device (the device-authentication challenge Chrome sends).
struct StatusCommand: Command {
    static let hosts = PositionalDeclaration(
        "HOST[:PORT]", help: "a receiver's address or name, port 8009 when none is given ([IPV6]:PORT with a port)",
        isRepeating: true)
    static let timeout = OptionDeclaration.value(
        "timeout", short: "t", valueName: "SECONDS",
        help: "longest each receiver may take, all phases together (default 5)")
    static let saveAuth = OptionDeclaration.value(
        "save-auth", valueName: "DIR",
        help:
            "write each receiver's answer to the challenge (HOST_PORT.auth-response.bin) and TLS certificate (HOST_PORT.tls-certificate.der) here, for `cast-scan auth verify`"
    )

    static let declaration = CommandDeclaration(
        name: "status", abstract: "Ask Cast receivers what they play, and whether they are genuine (no discovery).",
        discussion:
            "Each receiver is asked to authenticate itself on the connection it answers on, as Chrome and the Cast SDK do: a signature by a key that chains to Google's Cast roots. Exit status 1 when a receiver did not answer with its status or is not genuine.",
        options: [timeout, JSONOutput.option] + DeviceAuthOptions.declarations + [saveAuth], positionals: [hosts],
        inheritsOptions: false)

    /// How many receivers are asked at once.
    static let concurrency = ReceiverStatusSweep.defaultConcurrency

    let context: CommandContext
    let endpoints: [ReceiverEndpoint]
    let timeoutDuration: Duration
    let auth: DeviceAuthOptions
    let saveDirectory: String?

    init(_ context: CommandContext) throws {
        self.context = context
        let arguments = context.arguments
        let texts = arguments.values(of: Self.hosts)
        guard !texts.isEmpty else { throw UsageError.missingArgument(Self.hosts.name) }
        endpoints = try texts.map { text throws(UsageError) in
            guard let endpoint = ReceiverEndpoint(parsing: text) else {
                throw UsageError.invalidValue(
                    option: Self.hosts.name, value: text,
                    expected: "a host (address or name) with an optional :PORT from 1 to 65535")
            }
            return endpoint
        }
        let seconds = try arguments.seconds(of: Self.timeout, in: 0.1...3600) ?? 5
        timeoutDuration = .milliseconds(Int64(seconds * 1000))
        auth = try DeviceAuthOptions(arguments)
        saveDirectory = arguments.value(of: Self.saveAuth)
        if saveDirectory != nil, auth.verifier == nil {
            throw UsageError.conflictingOptions("--save-auth", "--no-auth")
        }
    }

    func run() async throws -> ExitCode {
        var checks = await Self.check(
            endpoints, timeout: timeoutDuration, verifier: auth.verifier, wallClock: context.wallClock)
        if let saveDirectory {
            for index in checks.indices {
                checks[index].saved = try DeviceAuthCheck.save(checks[index].result, in: saveDirectory)
            }
        }
        if context.arguments.isSet(JSONOutput.option) {
            context.console.write(try JSONOutput.string(ReceiverStatusReport(checks), format: .pretty))
        } else {
            ReceiverStatusTable(checks, authenticating: auth.verifier != nil).lines.forEach { context.console.line($0) }
        }
        return checks.allSatisfy(\.passed) ? .ok : .noDevices
    }

    /// Every endpoint's result and verdict (each judged as its answer comes, at the wall
    /// clock's time then), in the order given, at most ``concurrency`` asked at once.
    static func check(
        _ endpoints: [ReceiverEndpoint], timeout: Duration, verifier: DeviceAuthVerifier?,
        wallClock: @escaping @Sendable () -> Date
    ) async -> [ReceiverCheck] {
        await withTaskGroup(of: (Int, ReceiverCheck).self) { group in
            var results = [ReceiverCheck?](repeating: nil, count: endpoints.count)
            var next = 0
            func add() {
                let index = next
                let endpoint = endpoints[index]
                group.addTask {
                    let result = await ReceiverProbe.probe(
                        host: endpoint.host, port: endpoint.port, timeout: timeout, authenticate: verifier != nil)
                    let verdict = verifier.flatMap { DeviceAuthCheck.verdict(result, by: $0, at: wallClock()) }
                    return (index, ReceiverCheck(result: result, verdict: verdict))
                }
                next += 1
            }
            while next < min(concurrency, endpoints.count) { add() }
            while let (index, result) = await group.next() {
                results[index] = result
                if next < endpoints.count { add() }
            }
            return results.compactMap { $0 }
        }
    }
}
