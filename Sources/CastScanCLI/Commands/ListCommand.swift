import CastChannel
import CastDiscovery
import CastDiscoveryBackends
import CastDiscoveryMDNS
import CastSender

/// `cast-scan` with no subcommand: one scan, then the devices beside the simulated sender.
/// The root of the command tree.
struct ListCommand: Command {
    static let failIfEmpty = OptionDeclaration.flag("fail-if-empty", help: "exit 1 when no device is listed")
    static let version = OptionDeclaration.flag(
        "version", help: "print the version and the commit it was built from, and exit")
    static let status = OptionDeclaration.flag(
        "status",
        help:
            "ask each listed device over the Cast channel what it plays and whether it is genuine, as soon as it is found (APP, VOLUME, REACHABLE, AUTH; a receiver object in --json); all within --timeout"
    )

    static let declaration = CommandDeclaration(
        name: "cast-scan",
        abstract: "List the Google Cast devices on the network beside what a sender app would see.",
        discussion: """
            Exit status: 0 ok, 1 no devices with --fail-if-empty (status: a receiver did not answer), 2 findings with errors (plist check, advise), \
            64 usage error, 65 bad input file, 69 the chosen backend unavailable (--backend avahi \
            without avahi-daemon) or no network interface with multicast up to list on, 73 a path to write is not a regular file (or a spool not a \
            directory), 74 standard output or the event spool cannot be written, 75 events left \
            in the spool (report send).
            """,
        options: ScanOptions.declarations + SenderOptions.declarations + [status] + DeviceAuthOptions.declarations + [
            JSONOutput.option, failIfEmpty, version,
        ])

    static var subcommands: [any Command.Type] {
        [
            WatchCommand.self, StatusCommand.self, ServeCommand.self, PublishCommand.self, ReportCommand.self,
            AuthCommand.self,
            PlistCommand.self, AdviseCommand.self, SimulateCommand.self, DoctorCommand.self,
        ]
    }

    let context: CommandContext
    let scanOptions: ScanOptions
    var sender: SenderOptions
    /// How `--status` authenticates devices.
    let auth: DeviceAuthOptions

    init(_ context: CommandContext) throws {
        self.context = context
        let arguments = context.arguments
        scanOptions = try ScanOptions(arguments)
        sender = try SenderOptions(arguments, environment: context.environment)
        auth = try DeviceAuthOptions(arguments, asks: arguments.isSet(Self.status))
        // The simulated app browses for the receiver apps the scan filters on (--app-id); with
        // none it has GCKCastOptions' default, the Default Media Receiver.
        if !arguments.values(of: ScanOptions.appID).isEmpty {
            sender.configuration.options.criteria = scanOptions.criteria
        }
    }

    func run() async throws -> ExitCode {
        try sender.checkStateFile()
        let selection = try selectBackend()
        try checkNetwork()
        // With --status each device is asked as soon as it is listed, all by the scan's time-out.
        // Each answer to the device-authentication challenge is judged as it comes, beside the
        // other devices' probes, at the wall clock's time then.
        let verifier = auth.verifier, wallClock = context.wallClock
        var judge: (@Sendable (ReceiverProbeResult) -> DeviceAuthVerdict?)?
        if let verifier { judge = { DeviceAuthCheck.verdict($0, by: verifier, at: wallClock()) } }
        let sweep =
            context.arguments.isSet(Self.status)
            ? ReceiverStatusSweep(
                states: ReceiverStates(), deadline: .now + scanOptions.timeout,
                probe: { endpoint, timeout in
                    await ReceiverProbe.probe(
                        host: endpoint.host, port: endpoint.port, timeout: timeout, authenticate: verifier != nil)
                }, judge: judge) : nil
        let result = try await scan(selection.backend, sweep: sweep)
        let devices = result.devices
        let (step, warnings) = try sender.simulate(devices: devices)
        var listing = Listing(
            selection: selection, result: result, devices: devices, step: step, warnings: warnings, sweep: sweep)
        if let sweep, verifier != nil { listing.auth = DeviceAuthVerdicts(devices, states: sweep.states) }
        if context.arguments.isSet(JSONOutput.option) {
            context.console.write(try JSONOutput.string(report(listing), format: .pretty))
        } else {
            printText(listing)
        }
        return context.arguments.isSet(Self.failIfEmpty) && devices.isEmpty ? .noDevices : .ok
    }

    /// The backend `--replay` or `--backend` asks for.
    private func selectBackend() throws(CommandFailure) -> BackendSelection {
        do {
            return try scanOptions.backend(live: false)
        } catch {
            throw CommandFailure(error)
        }
    }

    /// A listing that asks by multicast needs an interface that carries it, by the rule of
    /// `doctor`'s "multicast interfaces" check: without one it fails with 69 and says why,
    /// rather than list nothing as if the network were empty. With `--host` it asks those
    /// devices alone, and says so; a replay and `--backend hosts` need no multicast.
    private func checkNetwork() throws(CommandFailure) {
        guard scanOptions.replayFile == nil, scanOptions.backendChoice != .hosts,
            let unavailability = NetworkInterface.multicastUnavailability()
        else { return }
        guard scanOptions.knownHosts == nil else {
            context.console.errorLine(
                "cast-scan: \(TerminalText.sanitize(unavailability.message)); only the --host devices are asked (see cast-scan doctor)"
            )
            return
        }
        throw CommandFailure(message: "\(unavailability.message) (see cast-scan doctor)", exitCode: .unavailable)
    }

    /// One scan through `backend`, counting the devices found so far on standard error's
    /// progress line (cleared when the scan ends, however it ends); with `sweep`, each device is
    /// handed to it as it is listed, and the scan ends when the sweep has every answer too.
    private func scan(_ backend: any DiscoveryBackend, sweep: ReceiverStatusSweep?) async throws(CommandFailure)
        -> ScanResult
    {
        let console = context.console
        let style = console.errorStyle
        defer { console.writeError(style.clearProgress()) }
        let manager = DiscoveryManager(backend: backend, criteria: scanOptions.criteria, filter: scanOptions.filter)
        let progress: @Sendable (Int) -> Void = { count in
            console.writeError(style.progress("scanning… \(count) device\(count == 1 ? "" : "s")"))
        }
        var listed: (@Sendable (CastDevice) -> Void)?
        if let sweep { listed = { device in sweep.ask(device) } }
        let result: ScanResult
        do throws(DiscoveryError) {
            result = try await manager.scan(timeout: scanOptions.timeout, progress: progress, listed: listed)
        } catch {
            await sweep?.finish()
            throw CommandFailure(error)
        }
        if let sweep {
            console.writeError(
                style.progress(
                    "asking \(result.devices.count) device\(result.devices.count == 1 ? "" : "s") for their status…"))
            await sweep.finish()
        }
        return result
    }
}
