import CastChannel
import CastDiscovery
import CastDiscoveryBackends
import CastDiscoveryReporting
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `cast-scan watch`: live changes until SIGINT or SIGTERM (exit 0), as human lines or JSON Lines.
struct WatchCommand: Command {
    static let jsonLines = OptionDeclaration.flag("jsonl", help: "one JSON object per event and line")
    static let status = OptionDeclaration.flag(
        "status",
        help:
            "keep a Cast channel open to each device (heartbeats, reconnects) and say when what it plays changes (receiverStatus) and when it becomes unreachable or reachable"
    )

    static let table = OptionDeclaration.flag(
        "table",
        help:
            "redraw the device table in place (standard output must be a terminal), with the channel's columns when --status is given"
    )

    static let declaration = CommandDeclaration(
        name: "watch", abstract: "Show Cast devices as they come, change and go, until interrupted.",
        options: ScanOptions.declarations + [jsonLines, status] + DeviceAuthOptions.declarations + [table]
            + ReportOptions.declarations,
        inheritsOptions: false)

    /// The longest a watch whose events have ended waits for its last send.
    static let finalSendLimit: Duration = .seconds(15)

    /// A signal is how a watch ends: it comes as `context.termination`.
    static var endsOnSignal: Bool { false }

    /// Live events: a reader slower than them loses the oldest lines, counted and said.
    static var streamsOutput: Bool { true }

    let context: CommandContext
    let options: ScanOptions
    /// `--report`: the device events stored and sent; nil without it.
    let report: ReportOptions?
    /// How `--status` authenticates devices.
    let auth: DeviceAuthOptions

    init(_ context: CommandContext) throws {
        self.context = context
        options = try ScanOptions(context.arguments)
        report = try ReportOptions.ifGiven(context.arguments, environment: context.environment)
        auth = try DeviceAuthOptions(context.arguments, asks: context.arguments.isSet(Self.status))
        if context.arguments.isSet(Self.table) {
            if context.arguments.isSet(Self.jsonLines) {
                throw UsageError.conflictingOptions("--table", "--jsonl")
            }
            guard LiveTable.isAvailable else { throw UsageError.needsTerminal(option: "--table") }
        }
    }

    /// One line of `--jsonl` output.
    struct Line: Encodable {
        var time: Date
        var event: String
        var index: Int?
        var toIndex: Int?
        var device: DeviceReport?
        /// `eventsDropped`: the list the missed events left, to carry on from.
        var devices: [DeviceReport]?
        var detail: String?
        var statistics: BackendStatistics?
        /// `receiverStatus`, `unreachable`, `reachable` (`--status`): the device.
        var uniqueID: String?
        var friendlyName: String?
        /// What the device said over the Cast channel, or why it said nothing.
        var receiver: ReceiverStatusReport.Receiver?
    }

    func run() async throws -> ExitCode {
        let jsonLines = context.arguments.isSet(Self.jsonLines)
        let selection: BackendSelection
        do {
            selection = try options.backend(live: true)
        } catch {
            throw CommandFailure(error)
        }
        let reporter = try report?.reporter()
        var reportPrinter: Task<Void, Never>?
        if let reporter { reportPrinter = try await Self.startReporting(reporter, console: context.console) }
        let manager = DiscoveryManager(backend: selection.backend, criteria: options.criteria, filter: options.filter)
        let events = manager.subscribeWithGenerations().events
        let signals = context.termination
        manager.startDiscovery()
        defer { manager.stopDiscovery() }

        let tabled = context.arguments.isSet(Self.table)
        let printer = Printer(console: context.console, jsonLines: jsonLines, silent: tabled)
        printer.note("backendChosen", "backend \(selection.name): \(selection.reason)")
        let monitor =
            try context.arguments.isSet(Self.status) ? Self.startMonitor(authenticates: auth.verifier != nil) : nil
        defer { monitor?.stop() }
        let flow = DiscoveryEventFlow(
            events: events, reporter: reporter, console: context.console, encodesLines: jsonLines,
            storesMissedEvents: true)
        let outcome = await withTaskGroup(of: ExitCode?.self) { group in
            flow.addTasks(to: &group, handler: Shown(printer: printer, reporter: reporter, monitor: monitor))
            if let monitor {
                group.addTask {
                    await ChannelLines(
                        printer: printer, reporter: reporter, manager: manager, verifier: auth.verifier,
                        wallClock: context.wallClock
                    ).follow(monitor)
                }
            }
            if tabled {
                let live = LiveTable(
                    console: context.console, manager: manager, states: monitor?.states, backend: selection.name)
                group.addTask {
                    await live.run()
                    return nil
                }
            }
            group.endOnSignal(signals)
            return await group.firstExit()
        }
        // Finishing the reporter may outlast a signal's grace period: a failure is kept.
        CastScan.decide(outcome)
        await reporter?.finish()
        await reportPrinter?.value
        return outcome
    }

    /// Says a damaged spool set aside, starts sending by itself, and prints each send that
    /// left events behind (and the first that delivered after one did), the drops (a line a
    /// second at most) and each recovery of the spool; the task ends when the reporter has
    /// finished and everything is printed.
    static func startReporting(_ reporter: EventReporter, console: Console) async throws -> Task<Void, Never> {
        ReportOptions.announceSetAside(try await ReportOptions.status(reporter), console: console)
        await reporter.startSending()
        return Task {
            var failing = false
            for await report in reporter.reports {
                if case .sent(let result) = report, result.refused > 0 {
                    ReportOptions.announceRefused(result.refused, console: console)
                }
                switch report {
                case .sent(let result) where result.failed > 0:
                    failing = true
                    let reason = result.error.map { ": \(TerminalText.sanitize($0))" } ?? ""
                    console.errorLine(
                        "cast-scan: report: \(result.delivered) sent, \(result.failed) waiting in the spool\(reason)")
                case .sent(let result) where failing:
                    failing = false
                    console.errorLine("cast-scan: report: the collector takes events again (\(result.delivered) sent)")
                case .sent:
                    break
                case .dropped, .recovered:
                    ReportOptions.announce(report, console: console)
                }
            }
        }
    }

    /// Prints each step (with `--report`, once it is stored); a replay's end finishes the send
    /// that is due, for a bounded time.
    struct Shown: DiscoveryStepHandler {
        var printer: Printer
        let reporter: EventReporter?
        /// `--status`: the channels follow the list.
        var monitor: ReceiverMonitor? = nil

        mutating func handle(_ step: DiscoveryStep) async -> ExitCode? {
            monitor?.follow(step.event)
            // The watch fell behind and its missed events were folded into the list they left:
            // that list was stored in their place, and the loss is said where it is read.
            if reporter != nil, case .eventsDropped(let missed) = step.event {
                printer.console.errorLine(
                    "cast-scan: report: the watch fell behind: \(missed.count) device events were not stored one by one; the list they left (\(missed.devices.count) devices) was stored in their place"
                )
            }
            if let exit = printer.print(step) {
                // Discovery stopped (a replay's end): the send that is due is finished, for a
                // bounded time; a signal still ends the watch at once.
                await reporter?.finish(flushingFor: WatchCommand.finalSendLimit)
                return exit
            }
            // Standard output stopped taking text: nothing more can be shown. The status is
            // settled by CastScan.run (0 for a closed pipe, else 74).
            if printer.console.outputFailure != nil { return .ok }
            return nil
        }

        func eventsEnded() async -> ExitCode? {
            await reporter?.finish(flushingFor: WatchCommand.finalSendLimit)
            return .ok
        }
    }

    struct Printer: Sendable {
        let console: Console
        let jsonLines: Bool
        /// `--table`: nothing goes to standard output (the table is drawn there); errors still
        /// go to standard error and end the watch as they do.
        var silent = false
        /// The known hosts that did not answer their last round, as last said.
        var unansweredHosts: [String] = []

        /// Prints one event; returns an exit status when the watch must end.
        mutating func print(_ step: DiscoveryStep) -> ExitCode? {
            switch step.event {
            case .inserted, .updated, .updatedAndMoved, .removed:
                if let change = step.change { emit(change, json: step.json) }
            case .backendStateChanged(let state): note("backend", "backend \(state)")
            case .scanCompleted(let done):
                let count = done.devices.count
                note("scanCompleted", "scan complete: \(count) device\(count == 1 ? "" : "s")")
            case .resolveFailed(let key, let error):
                note("resolveFailed", "could not resolve \(key.name): \(error.message)")
            case .backendStatistics(let statistics):
                if jsonLines { line(Line(time: Date(), event: "statistics", statistics: statistics)) }
                let now = statistics.unansweredHosts ?? []
                for host in now where !unansweredHosts.contains(host) {
                    note("hostUnanswered", "no answer from host \(host) (DNS-SD by unicast to port 5353)")
                }
                for host in unansweredHosts where !now.contains(host) {
                    note("hostAnswered", "host \(host) answers again")
                }
                unansweredHosts = now
            case .discoveryFailedToStart(let error):
                console.errorLine("cast-scan: \(TerminalText.sanitize(error.description))")
                return CommandFailure(error).exitCode
            case .discoveryStopped(.backendFailed(let error)):
                console.errorLine("cast-scan: \(TerminalText.sanitize(error.description))")
                return CommandFailure(error).exitCode
            case .discoveryStopped:
                note("stopped", "discovery stopped")
                return .ok
            case .eventsDropped(let missed):
                if !jsonLines {
                    note("eventsDropped", Self.droppedText(missed))
                } else if let json = step.json {
                    console.write(JSONOutput.text(json))
                } else {
                    line(Self.droppedLine(missed))
                }
            case .discoveryStarted, .hadDiscoveredDevicesWhenStarting, .willUpdateDeviceList, .didUpdateDeviceList,
                .cacheExhausted, .allForNow, .browseSettled:
                break
            }
            return nil
        }

        /// The `eventsDropped` line: how many events were missed and the list they left.
        static func droppedLine(_ missed: MissedEvents) -> Line {
            Line(
                time: Date(), event: "eventsDropped", devices: missed.devices.map { DeviceReport($0) },
                detail: Self.droppedText(missed))
        }

        static func droppedText(_ missed: MissedEvents) -> String {
            let listed = missed.devices.count
            return
                "events dropped: \(missed.count) (the consumer was too slow); \(listed) device\(listed == 1 ? "" : "s") listed now"
        }

        /// A device event, as its `--jsonl` line and its mark for people.
        struct DeviceChange: Sendable {
            var line: Line
            var device: CastDevice
            var mark: String
        }

        /// The change a device event (inserted, updated, moved, removed) makes; nil for any
        /// other event.
        static func deviceChange(_ event: DiscoveryEvent) -> DeviceChange? {
            let (kind, mark, device, index, toIndex): (String, String, CastDevice, Int, Int?)
            switch event {
            case .inserted(let found, let at): (kind, mark, device, index, toIndex) = ("inserted", "+", found, at, nil)
            case .updated(let found, let at): (kind, mark, device, index, toIndex) = ("updated", "~", found, at, nil)
            case .updatedAndMoved(let found, let from, let to):
                (kind, mark, device, index, toIndex) = ("moved", "~", found, from, to)
            case .removed(let found, let at): (kind, mark, device, index, toIndex) = ("removed", "-", found, at, nil)
            default: return nil
            }
            let line = Line(time: Date(), event: kind, index: index, toIndex: toIndex, device: DeviceReport(device))
            return DeviceChange(line: line, device: device, mark: mark)
        }

        /// Prints a device change: its JSON line (`json`, the bytes stored, when encoded) or its
        /// line for people.
        private func emit(_ change: DeviceChange, json: [UInt8]?) {
            if silent { return }
            if jsonLines, let json { return console.write(JSONOutput.text(json)) }
            if jsonLines { return line(change.line) }
            let device = change.device
            let status = device.status == .busy ? " busy" + (device.statusText.map { ": \($0)" } ?? "") : ""
            let address = device.networkAddress.map { $0.endpoint(port: device.port) } ?? "-"
            let text =
                "\(change.mark) \(device.friendlyName) (\(device.kind), \(device.modelName ?? "-")) \(address)\(status)"
            console.line("\(TimeOfDay.now()) \(TerminalText.sanitize(text))")
        }

        func note(_ kind: String, _ text: String) {
            if silent { return }
            if jsonLines {
                line(Line(time: Date(), event: kind, detail: text))
            } else {
                console.line(
                    "\(TimeOfDay.now()) \(console.outputStyle.paint("* " + TerminalText.sanitize(text), .dim))")
            }
        }

        private func line(_ value: Line) {
            if let text = try? JSONOutput.string(value, format: .lines) { console.write(text) }
        }
    }
}
