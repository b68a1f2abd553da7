import CastChannel
import CastDiscovery

/// `cast-scan status HOST[:PORT]...`: asks receivers directly over the Cast channel (no
/// discovery) what they play and at what volume, or why they cannot be asked.
struct StatusCommand: Command {
    static let hosts = PositionalDeclaration(
        "HOST[:PORT]", help: "a receiver's address or name, port 8009 when none is given ([IPV6]:PORT with a port)",
        isRepeating: true)
    static let timeout = OptionDeclaration.value(
        "timeout", short: "t", valueName: "SECONDS",
        help: "longest each receiver may take, all phases together (default 5)")

    static let declaration = CommandDeclaration(
        name: "status", abstract: "Ask Cast receivers what they play, over the Cast channel (no discovery).",
        discussion: "Exit status 1 when a receiver did not answer with its status.",
        options: [timeout, JSONOutput.option], positionals: [hosts], inheritsOptions: false)

    /// How many receivers are asked at once.
    static let concurrency = ReceiverStatusSweep.defaultConcurrency

    let context: CommandContext
    let endpoints: [ReceiverEndpoint]
    let timeoutDuration: Duration

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
    }

    func run() async throws -> ExitCode {
        let results = await Self.probe(endpoints, timeout: timeoutDuration)
        if context.arguments.isSet(JSONOutput.option) {
            context.console.write(try JSONOutput.string(ReceiverStatusReport(results), format: .pretty))
        } else {
            ReceiverStatusTable(results).lines.forEach { context.console.line($0) }
        }
        return results.allSatisfy(\.isReachable) ? .ok : .noDevices
    }

    /// Every endpoint's result, in the order given, at most ``concurrency`` asked at once.
    static func probe(_ endpoints: [ReceiverEndpoint], timeout: Duration) async -> [ReceiverProbeResult] {
        await withTaskGroup(of: (Int, ReceiverProbeResult).self) { group in
            var results = [ReceiverProbeResult?](repeating: nil, count: endpoints.count)
            var next = 0
            func add() {
                let index = next
                let endpoint = endpoints[index]
                group.addTask {
                    (index, await ReceiverProbe.probe(host: endpoint.host, port: endpoint.port, timeout: timeout))
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
