import CastChannel
import CastDiscovery
import CastDiscoveryReporting
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension WatchCommand {
    /// The monitor of `--status`, started.
    static func startMonitor() throws(CommandFailure) -> ReceiverMonitor {
        do {
            let monitor = try ReceiverMonitor(states: ReceiverStates())
            try monitor.start()
            return monitor
        } catch {
            throw CommandFailure(message: error.description, exitCode: .software)
        }
    }

    /// The lines of `--status`: `receiverStatus` when what a device plays changes,
    /// `unreachable` when it cannot be reached (with the reason), `reachable` when it answers
    /// again; with `--report`, each stored before it is printed.
    struct ChannelLines: Sendable {
        let printer: Printer
        let reporter: EventReporter?
        let manager: DiscoveryManager

        /// Prints the monitor's events until they end; an exit status when one cannot be stored.
        func follow(_ monitor: ReceiverMonitor) async -> ExitCode? {
            var dropped = 0
            for await event in monitor.events {
                if Task.isCancelled { return nil }
                if case let now = monitor.droppedEvents, now > dropped {
                    printer.note(
                        "receiverEventsDropped",
                        "receiver events dropped: \(now - dropped) (the reader was too slow); the latest state of each device is kept"
                    )
                    dropped = now
                }
                if let exit = await show(event) { return exit }
            }
            return nil
        }

        /// One event as its line; stored first with `--report`.
        func show(_ event: ReceiverMonitorEvent) async -> ExitCode? {
            let name = manager.device(withUniqueID: event.uniqueID)?.friendlyName
            let kind: String
            switch event {
            case .status: kind = "receiverStatus"
            case .unreachable: kind = "unreachable"
            case .reachable: kind = "reachable"
            }
            let line = Line(
                time: Date(), event: kind, uniqueID: event.uniqueID, friendlyName: name,
                receiver: ReceiverStatusReport.Receiver(event.result))
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
            printer.console.line("\(TimeOfDay.now()) \(Self.text(event, name: name ?? event.uniqueID))")
            return nil
        }

        /// An event's line for people, sanitized: `= NAME: APP "TEXT", volume V`, `! NAME
        /// unreachable: REASON`, `^ NAME reachable again`.
        static func text(_ event: ReceiverMonitorEvent, name: String) -> String {
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
            }
            return TerminalText.sanitize(text)
        }
    }
}
