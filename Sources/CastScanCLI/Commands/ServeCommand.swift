import CastChannel
import CastDiscovery
import CastDiscoveryBackends
import CastDiscoveryReporting
import CastScanServing
#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `cast-scan serve`: a watch that answers HTTP: Prometheus metrics, the device list as JSON,
/// a health check and a status page, until SIGINT or SIGTERM (exit 0).
struct ServeCommand: Command {
    static let status = OptionDeclaration.flag(
        "status",
        help:
            "keep a Cast channel open to each device: whether it answers, what it plays, its volume and whether it is genuine, in /metrics (cast_device_reachable, cast_device_authenticated...), /devices and the status page"
    )

    static let declaration = CommandDeclaration(
        name: "serve",
        abstract:
            "Watch Cast devices and serve them over HTTP: /metrics for Prometheus, /devices (JSON), /healthz and a status page at /.",
        options: ScanOptions.declarations + ServeOptions.declarations + [status] + DeviceAuthOptions.declarations
            + ReportOptions.declarations,
        inheritsOptions: false)

    /// A signal is how serving ends: it comes as `context.termination`.
    static var endsOnSignal: Bool { false }

    /// How often gone devices are forgotten and the report spool's counts read.
    static let tick: Duration = .seconds(1)

    let context: CommandContext
    let options: ScanOptions
    let serve: ServeOptions
    /// `--report`: the device events stored and sent; nil without it.
    let report: ReportOptions?
    /// How `--status` authenticates devices.
    let auth: DeviceAuthOptions

    init(_ context: CommandContext) throws {
        self.context = context
        options = try ScanOptions(context.arguments)
        serve = try ServeOptions(context.arguments)
        report = try ReportOptions.ifGiven(context.arguments, environment: context.environment)
        // /probe asks receivers whether or not --status does.
        auth = try DeviceAuthOptions(context.arguments)
    }

    func run() async throws -> ExitCode {
        let console = context.console
        let access = try webAccess()
        if context.arguments.isSet(ServeOptions.checkConfig) {
            console.errorLine(
                "cast-scan: serve: the configuration reads"
                    + (access.path.map { " (--web-config \(TerminalText.sanitize($0)))" } ?? ""))
            return .ok
        }
        // From now on SIGHUP asks for a reload; it no longer ends the process.
        let reloads = SignalStream.reloads()
        let selection: BackendSelection
        do {
            selection = try options.backend(live: true)
        } catch {
            throw CommandFailure(error)
        }
        let monitor = FleetMonitor(
            Fleet(
                backend: selection.name, reason: selection.reason, started: Date(),
                forgetAfter: serve.forgetAfter, goneLimit: serve.maxDevices))
        let channel =
            try context.arguments.isSet(Self.status)
            ? WatchCommand.startMonitor(authenticates: auth.verifier != nil) : nil
        defer { channel?.stop() }
        var routes = ServeRoutes(monitor: monitor, maxDevices: serve.maxDevices, channel: channel?.states)
        routes.probe = ProbeRoute(
            monitor: monitor, allowed: serve.probeAllowed, verifier: auth.verifier, clock: Self.clock,
            wallClock: context.wallClock)
        let servers: [HTTPServer]
        do {
            servers = try startServers(routes, access: access)
        } catch {
            console.errorLine("cast-scan: serve: \(TerminalText.sanitize(error.description))")
            return .unavailable
        }
        defer { servers.forEach { $0.stop() } }
        let scheme = access.configuration.tls == nil ? "http" : "https"
        let addresses = servers.map { "\(scheme)://\($0.address)/" }.joined(separator: ", ")

        let reporter = try report?.reporter()
        var reportPrinter: Task<Void, Never>?
        if let reporter { reportPrinter = try await WatchCommand.startReporting(reporter, console: console) }
        let manager = DiscoveryManager(backend: selection.backend, criteria: options.criteria, filter: options.filter)
        let (list, events) = manager.subscribeWithGenerations()
        monitor.update { $0.list(list.devices, generation: list.generation, at: Date()) }
        list.devices.forEach { channel?.watch($0) }
        let signals = context.termination
        manager.startDiscovery()
        defer { manager.stopDiscovery() }

        console.errorLine(
            "cast-scan: serve: listening on \(addresses) (metrics at /metrics); backend \(selection.name): \(TerminalText.sanitize(selection.reason))"
        )
        if case .failed(let reason) = ServiceManager.ready(
            status:
                "serving on \(servers.map(\.address.description).joined(separator: ", ")), backend \(selection.name)")
        {
            console.errorLine("cast-scan: serve: cannot tell the service manager it is ready: \(reason)")
        }

        let outcome = await withTaskGroup(of: ExitCode?.self) { group in
            let flow = DiscoveryEventFlow(
                events: events, reporter: reporter, console: console, encodesLines: false, storesMissedEvents: false)
            flow.addTasks(
                to: &group, handler: Logged(monitor: monitor, manager: manager, console: console, channel: channel))
            if let channel {
                group.addTask {
                    await Self.log(
                        channel, manager: manager, console: console, verifier: auth.verifier,
                        wallClock: context.wallClock)
                    return nil
                }
            }
            // SIGHUP: the web configuration (and the files it names) read again now; a service
            // is not ended by it.
            group.addTask {
                for await _ in reloads {
                    if access.path == nil {
                        console.errorLine("cast-scan: serve: SIGHUP: no --web-config to read again")
                    } else {
                        access.reload()
                    }
                }
                return nil
            }
            let ticker = ServeTicker(
                monitor: monitor, reporter: reporter, interval: Self.tick, clock: Self.clock)
            group.addTask {
                await ticker.run()
                return nil
            }
            group.endOnSignal(signals)
            return await group.firstExit()
        }
        ServiceManager.stopping()
        servers.forEach { $0.stop() }
        CastScan.decide(outcome)
        await reporter?.finish()
        await reportPrinter?.value
        return outcome
    }

    /// The web configuration (`--web-config`), read and checked; 78 with the reason when it does
    /// not read.
    private func webAccess() throws(CommandFailure) -> WebAccess {
        let console = context.console
        let access: WebAccess
        do {
            access = try WebAccess(
                path: context.arguments.value(of: ServeOptions.webConfig),
                waitingLogins: min(64, max(1, serve.maxConnections / 4)), clock: Self.clock,
                log: { console.errorLine("cast-scan: serve: \(TerminalText.sanitize($0))") })
        } catch {
            throw CommandFailure(message: "serve: --web-config: \(error.message)", exitCode: .configuration)
        }
        return access
    }

    /// The one monotonic clock of serve's probes, logins, TLS handshakes and reloads.
    private static let clock = ContinuousClock()

    /// One server per socket systemd passed (socket activation; `--listen` is then refused), or
    /// per `--listen` address; all of them or none.
    private func startServers(_ routes: ServeRoutes, access: WebAccess) throws(HTTPServerError) -> [HTTPServer] {
        let limits = HTTPServer.Limits(connections: serve.maxConnections)
        let wallClock = context.wallClock
        let answerer: HTTPServer.Answerer = { request in
            access.answer(request) { routes.answer($0, at: wallClock()) }
        }
        let tls = access.configuration.tls != nil
        let clock = Self.clock
        let sockets = try SocketActivation.sockets(environment: context.environment, processID: getpid())
        guard sockets.isEmpty else {
            guard !context.arguments.isSet(ServeOptions.listen) else {
                throw .badSocketActivation("sockets were passed, and --listen too: give one or the other")
            }
            var started: [HTTPServer] = []
            for socket in sockets {
                do {
                    started.append(
                        tls
                            ? try HTTPServer(
                                socket: socket, limits: limits, tls: access, clock: clock, answerer: answerer)
                            : try HTTPServer(socket: socket, limits: limits, answerer: answerer))
                } catch {
                    started.forEach { $0.stop() }
                    throw error
                }
            }
            return started
        }
        var started: [HTTPServer] = []
        for address in serve.listen {
            do {
                started.append(
                    tls
                        ? try HTTPServer(listen: address, limits: limits, tls: access, clock: clock, answerer: answerer)
                        : try HTTPServer(listen: address, limits: limits, answerer: answerer))
            } catch {
                started.forEach { $0.stop() }
                throw error
            }
        }
        return started
    }

    /// Logs each device change on standard error and applies each event to the fleet (with
    /// `--report`, once it is stored): the list changes of one batch (between
    /// willUpdateDeviceList and didUpdateDeviceList) together, each by its generation. The end
    /// of the events leaves the server serving.
    struct Logged: DiscoveryStepHandler {
        let monitor: FleetMonitor
        let manager: DiscoveryManager
        let console: Console
        /// `--status`: the channels follow the list.
        let channel: ReceiverMonitor?
        var batch: [NumberedDiscoveryEvent] = []

        init(monitor: FleetMonitor, manager: DiscoveryManager, console: Console, channel: ReceiverMonitor? = nil) {
            self.monitor = monitor
            self.manager = manager
            self.console = console
            self.channel = channel
        }

        mutating func handle(_ step: DiscoveryStep) async -> ExitCode? {
            channel?.follow(step.event)
            if let change = step.change { ServeCommand.log(change, console: console) }
            if step.event.listChange != nil, let generation = step.generation {
                batch.append(NumberedDiscoveryEvent(step.event, generation: generation))
            } else if case .didUpdateDeviceList = step.event {
                ServeCommand.follow(batch, in: monitor, manager: manager)
                batch.removeAll()
            }
            ServeCommand.apply(step.event, to: monitor, console: console)
            return nil
        }

        func eventsEnded() async -> ExitCode? { nil }
    }

    /// Applies a batch of list changes to the fleet in one step, each by its generation; on a
    /// gap the fleet takes the manager's list whole (the changes it already holds are then
    /// skipped by generation).
    private static func follow(_ batch: [NumberedDiscoveryEvent], in monitor: FleetMonitor, manager: DiscoveryManager) {
        let now = Date()
        let followed = monitor.update { fleet in
            batch.allSatisfy { numbered in
                numbered.event.listChange.map { fleet.apply($0, generation: numbered.generation, at: now) } ?? true
            }
        }
        guard !followed else { return }
        let list = manager.list
        monitor.update { $0.list(list.devices, generation: list.generation, at: now) }
    }

    /// Applies one discovery event other than a list change to the fleet, and says the
    /// backend's changes on stderr.
    private static func apply(_ event: DiscoveryEvent, to monitor: FleetMonitor, console: Console) {
        switch event {
        case .eventsDropped(let missed):
            // What the missed events left: the list, the backend's state, whether discovery runs.
            monitor.update {
                $0.list(missed.devices, generation: missed.generation, at: Date())
                $0.missedEvents += missed.count
                $0.backendState = missed.backendState
                if missed.scanCompletion != nil { $0.firstScanDone = true }
                if missed.discoveryState == .stopped, $0.stopped == nil {
                    $0.stopped = "stopped while this server was behind"
                }
            }
            console.errorLine("cast-scan: serve: \(WatchCommand.Printer.droppedText(missed))")
        case .backendStateChanged(let state):
            monitor.update { $0.backendState = state }
            console.errorLine("cast-scan: serve: backend \(TerminalText.sanitize(state.description))")
        case .backendStatistics(let statistics):
            monitor.update { $0.statistics = statistics }
        case .scanCompleted:
            monitor.update { $0.firstScanDone = true }
        case .discoveryStopped(let reason):
            let text =
                switch reason {
                case .requested: "stopped"
                case .backendEnded: "the backend's events ended (a replay's end)"
                case .backendFailed(let error): "the backend failed: \(error)"
                }
            monitor.update { $0.stopped = text }
            console.errorLine(
                "cast-scan: serve: discovery stopped: \(TerminalText.sanitize(text)); still serving what was found")
        case .discoveryFailedToStart(let error):
            monitor.update { $0.stopped = "failed to start: \(error)" }
            console.errorLine("cast-scan: serve: \(TerminalText.sanitize(error.description)); still serving")
        case .resolveFailed(let key, let error):
            console.errorLine(
                "cast-scan: serve: could not resolve \(TerminalText.sanitize(key.name)): \(TerminalText.sanitize(error.message))"
            )
        case .inserted, .updated, .updatedAndMoved, .removed, .discoveryStarted, .willUpdateDeviceList,
            .didUpdateDeviceList,
            .cacheExhausted, .allForNow, .browseSettled, .hadDiscoveredDevicesWhenStarting:
            break
        }
    }

    /// One stderr line when a device becomes unreachable over its Cast channel (with the
    /// reason), when it answers again, and when its verdict on a new channel differs from its
    /// last (each verdict recorded in the channel's states); until the monitor's events end.
    private static func log(
        _ channel: ReceiverMonitor, manager: DiscoveryManager, console: Console, verifier: DeviceAuthVerifier?,
        wallClock: @Sendable () -> Date
    ) async {
        var verdicts = WatchedVerdicts()
        let name = { (id: String) in manager.device(withUniqueID: id)?.friendlyName ?? id }
        for await event in channel.events {
            switch event {
            case .status:
                continue
            case .deviceAuth(let id, let result):
                guard let verifier, let verdict = DeviceAuthCheck.verdict(result, by: verifier, at: wallClock()) else {
                    continue
                }
                channel.states.record(authentication: verdict, for: id)
                for (changed, report) in verdicts.update(id, verdict, devices: manager.device(withUniqueID:)) {
                    let line = WatchCommand.ChannelLines.text(
                        .deviceAuth(uniqueID: changed, result), name: name(changed), auth: report)
                    console.errorLine("cast-scan: serve: \(line)")
                }
            case .unreachable, .reachable:
                let line = WatchCommand.ChannelLines.text(event, name: name(event.uniqueID))
                console.errorLine("cast-scan: serve: \(line)")
            }
        }
    }

    /// One stderr line per device change, as `watch` prints them.
    private static func log(_ change: WatchCommand.Printer.DeviceChange, console: Console) {
        let device = change.device
        let address = device.networkAddress.map { $0.endpoint(port: device.port) } ?? "-"
        let status = device.status == .busy ? " busy" : ""
        console.errorLine(
            "cast-scan: serve: \(change.mark) \(TerminalText.sanitize("\(device.friendlyName) (\(device.kind), \(device.modelName ?? "-")) \(address)\(status)"))"
        )
    }
}
