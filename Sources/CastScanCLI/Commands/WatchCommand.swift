import CastDiscovery
import CastDiscoveryBackends
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `cast-scan watch`: live changes until SIGINT or SIGTERM (exit 0), as human lines or JSON Lines.
struct WatchCommand: Command {
    static let jsonLines = OptionDeclaration.flag("jsonl", help: "one JSON object per event and line")

    static let declaration = CommandDeclaration(
        name: "watch", abstract: "Show Cast devices as they come, change and go, until interrupted.",
        options: ScanOptions.declarations + [jsonLines], inheritsOptions: false)

    let context: CommandContext
    let options: ScanOptions

    init(_ context: CommandContext) throws {
        self.context = context
        options = try ScanOptions(context.arguments)
    }

    /// One line of `--jsonl` output.
    struct Line: Encodable {
        var time: Date
        var event: String
        var index: Int?
        var toIndex: Int?
        var device: DeviceReport?
        var detail: String?
        var statistics: BackendStatistics?
    }

    func run() async throws -> ExitCode {
        let jsonLines = context.arguments.isSet(Self.jsonLines)
        let selection: BackendSelection
        do {
            selection = try options.backend(live: true)
        } catch {
            throw CommandFailure(error)
        }
        let manager = DiscoveryManager(backend: selection.backend, criteria: options.criteria)
        let events = manager.events()
        let signals = await SignalStream.termination()
        manager.startDiscovery()
        defer { manager.stopDiscovery() }

        let printer = Printer(console: context.console, jsonLines: jsonLines, options: options)
        printer.note("backendChosen", "backend \(selection.name): \(selection.reason)")
        let outcome = await withTaskGroup(of: ExitCode?.self) { group in
            group.addTask {
                var printer = printer
                for await event in events {
                    if let exit = printer.print(event) { return exit }
                    // Standard output stopped taking text: nothing more can be shown. The
                    // status is settled by CastScan.run (0 for a closed pipe, else 74).
                    if printer.console.outputFailure != nil { return .ok }
                }
                return .ok
            }
            group.addTask {
                for await _ in signals { return .ok }
                return nil
            }
            var result: ExitCode = .ok
            for await exit in group {
                if let exit { result = exit; break }
            }
            group.cancelAll()
            return result
        }
        return outcome
    }

    struct Printer: Sendable {
        let console: Console
        let jsonLines: Bool
        let options: ScanOptions
        /// The known hosts that did not answer their last round, as last said.
        var unansweredHosts: [String] = []

        /// Prints one event; returns an exit status when the watch must end.
        mutating func print(_ event: DiscoveryEvent) -> ExitCode? {
            switch event {
            case .inserted(let device, let index): emit("inserted", "+", device, index: index)
            case .updated(let device, let index): emit("updated", "~", device, index: index)
            case .updatedAndMoved(let device, let from, let to): emit("moved", "~", device, index: from, toIndex: to)
            case .removed(let device, let index): emit("removed", "-", device, index: index)
            case .backendStateChanged(let state): note("backend", "backend \(state)")
            case .scanCompleted(let done):
                let count = done.devices.compactMap(options.filter).count
                note("scanCompleted", "scan complete: \(count) device\(count == 1 ? "" : "s")")
            case .resolveFailed(let key, let error): note("resolveFailed", "could not resolve \(key.name): \(error.message)")
            case .backendStatistics(let statistics):
                if jsonLines { line(Line(time: Date(), event: "statistics", statistics: statistics)) }
                let now = statistics.unansweredHosts ?? []
                for host in now where !unansweredHosts.contains(host) {
                    note("hostUnanswered", "no answer from host \(host) (DNS-SD by unicast to port 5353)")
                }
                for host in unansweredHosts where !now.contains(host) { note("hostAnswered", "host \(host) answers again") }
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
            case .discoveryStarted, .hadDiscoveredDevicesWhenStarting, .willUpdateDeviceList, .didUpdateDeviceList,
                 .cacheExhausted, .allForNow, .browseSettled:
                break
            }
            return nil
        }

        private func emit(_ kind: String, _ mark: String, _ device: CastDevice, index: Int, toIndex: Int? = nil) {
            guard let device = options.filter(device) else { return }
            if jsonLines {
                line(Line(time: Date(), event: kind, index: index, toIndex: toIndex, device: DeviceReport(device)))
                return
            }
            let status = device.status == .busy ? " busy" + (device.statusText.map { ": \($0)" } ?? "") : ""
            let address = device.networkAddress.map { $0.endpoint(port: device.port) } ?? "-"
            let text = "\(mark) \(device.friendlyName) (\(device.kind), \(device.modelName ?? "-")) \(address)\(status)"
            console.line("\(TimeOfDay.now()) \(TerminalText.sanitize(text))")
        }

        func note(_ kind: String, _ text: String) {
            if jsonLines {
                line(Line(time: Date(), event: kind, detail: text))
            } else {
                console.line("\(TimeOfDay.now()) \(console.outputStyle.paint("* " + TerminalText.sanitize(text), .dim))")
            }
        }

        private func line(_ value: Line) {
            if let text = try? JSONOutput.string(value, format: .lines) { console.write(text) }
        }
    }
}
