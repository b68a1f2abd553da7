import CastChannel
import CastDiscovery
import CastDiscoveryReporting
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension WatchCommand {
    /// The monitor of `--status`, started; each new channel asks the device-authentication
    /// challenge when `authenticates`.
    static func startMonitor(authenticates: Bool) throws(CommandFailure) -> ReceiverMonitor {
        do {
            let monitor = try ReceiverMonitor(
                states: ReceiverStates(), configuration: .init(authenticates: authenticates))
            try monitor.start()
            return monitor
        } catch {
            throw CommandFailure(message: error.description, exitCode: .software)
        }
    }

    /// The lines of `--status`: `receiverStatus` when what a device plays changes,
    /// `unreachable` when it cannot be reached (with the reason), `reachable` when it answers
    /// again, `authenticated` or `notAuthenticated` when a channel's verdict differs from the
    /// device's last; with `--report`, each stored before it is printed.
    struct ChannelLines: Sendable {
        let printer: Printer
        let reporter: EventReporter?
        let manager: DiscoveryManager
        /// How verdicts are given; nil with `--no-auth`.
        let verifier: DeviceAuthVerifier?
        let wallClock: @Sendable () -> Date

        /// Prints the monitor's events until they end; an exit status when one cannot be stored.
        func follow(_ monitor: ReceiverMonitor) async -> ExitCode? {
            var dropped = 0
            var verdicts = WatchedVerdicts()
            for await event in monitor.events {
                if Task.isCancelled { return nil }
                if case let now = monitor.droppedEvents, now > dropped {
                    printer.note(
                        "receiverEventsDropped",
                        "receiver events dropped: \(now - dropped) (the reader was too slow); the latest state of each device is kept"
                    )
                    dropped = now
                }
                guard case .deviceAuth(let id, let result) = event else {
                    if let exit = await show(event) { return exit }
                    continue
                }
                guard let verifier, let verdict = DeviceAuthCheck.verdict(result, by: verifier, at: wallClock())
                else { continue }
                monitor.states.record(authentication: verdict, for: id)
                for (changed, report) in verdicts.update(id, verdict, devices: manager.device(withUniqueID:)) {
                    let result = changed == id ? result : monitor.states.entry(for: changed)?.result ?? result
                    if let exit = await show(.deviceAuth(uniqueID: changed, result), auth: report) { return exit }
                }
            }
            return nil
        }

        /// One event as its line; stored first with `--report`.
        func show(_ event: ReceiverMonitorEvent, auth: DeviceAuthReport? = nil) async -> ExitCode? {
            let name = manager.device(withUniqueID: event.uniqueID)?.friendlyName
            let kind: String
            switch event {
            case .status: kind = "receiverStatus"
            case .unreachable: kind = "unreachable"
            case .reachable: kind = "reachable"
            case .deviceAuth: kind = auth?.authenticated == true ? "authenticated" : "notAuthenticated"
            }
            var receiver = ReceiverStatusReport.Receiver(event.result)
            receiver.auth = auth
            let line = Line(
                time: wallClock(), event: kind, uniqueID: event.uniqueID, friendlyName: name, receiver: receiver)
            if let reporter {
                do throws(EventReportError) {
                    _ = try await reporter.record(line)
                } catch {
                    printer.console.errorLine(
                        "cast-scan: cannot store the event for the collector: \(TerminalText.sanitize(String(describing: error)))"
                    )
                    return error.isTemporary ? .eventsRemain : error.isRefusal ? .cannotCreate : .ioError
                }
            }
            if printer.silent { return nil }
            if printer.jsonLines {
                if let text = try? JSONOutput.string(line, format: .lines) { printer.console.write(text) }
                return nil
            }
            printer.console.line("\(TimeOfDay.now()) \(Self.text(event, name: name ?? event.uniqueID, auth: auth))")
            return nil
        }

        /// An event's line for people, sanitized: `= NAME: APP "TEXT", volume V`, `! NAME
        /// unreachable: REASON`, `^ NAME reachable again`, `+ NAME authenticated: …`, `! NAME not
        /// authenticated: CODE: REASON`.
        static func text(_ event: ReceiverMonitorEvent, name: String, auth: DeviceAuthReport? = nil) -> String {
            let text: String
            switch event {
            case .status(_, let result):
                let app = ReceiverStatusTable.application(result.status)
                let detail = result.status?.runningApplication?.statusText.map { " \"\($0)\"" } ?? ""
                text =
                    "= \(name): \(app)\(detail), volume \(ReceiverStatusTable.volume(result.status?.volume))"
                    + (result.status?.isStandBy == true ? ", standby" : "")
            case .unreachable(_, let result):
                text = "! \(name) unreachable: \(result.error?.description ?? "no status")"
            case .reachable:
                text = "^ \(name) reachable again"
            case .deviceAuth:
                if let auth, auth.authenticated {
                    text = "+ \(name) authenticated: \(auth.summary)"
                } else {
                    text = "! \(name) not authenticated: \(auth?.summary ?? "no verdict")"
                }
            }
            return TerminalText.sanitize(text)
        }
    }
}

/// The last verdict of each watched device, and the impostors among them: what `watch
/// --status` and `serve --status` say only when it changes.
struct WatchedVerdicts {
    private var verdicts: [String: DeviceAuthVerdict] = [:]
    private var said: [String: String] = [:]

    /// Keeps `verdict` for `id`; the reports to say, by unique ID: `id`'s when what is said of
    /// it changed, and any other device's whose impostor status changed with it.
    mutating func update(_ id: String, _ verdict: DeviceAuthVerdict, devices listed: (String) -> CastDevice?)
        -> [(id: String, report: DeviceAuthReport)]
    {
        verdicts[id] = verdict
        let devices = verdicts.keys.compactMap(listed)
        let impostors = DeviceImpostor.find(in: devices) { [verdicts] in verdicts[$0.uniqueID]?.authenticated }
        var changed: [(id: String, report: DeviceAuthReport)] = []
        for other in [id] + verdicts.keys.filter({ $0 != id }).sorted() {
            guard let verdict = verdicts[other] else { continue }
            let report = DeviceAuthReport(verdict, impostorOf: impostors[other])
            let words = "\(report.summary)|\(report.impostorOf?.uniqueID ?? "")"
            // Another device is said again only when its impostor status changed.
            guard said[other] != words, other == id || said[other] != nil else { continue }
            said[other] = words
            changed.append((other, report))
        }
        return changed
    }
}
