import CastDiscoveryReporting
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `cast-scan report status`: what the spool holds and how the last send went. It only reads:
/// the bounds given are counted against, never applied.
struct ReportStatusCommand: Command {
    static let declaration = CommandDeclaration(
        name: "status", abstract: "Show the stored events: how many wait, the oldest's age, drops, the last send.",
        options: ReportOptions.spoolDeclarations + [JSONOutput.option])

    let context: CommandContext
    let options: ReportOptions

    init(_ context: CommandContext) throws {
        self.context = context
        options = try ReportOptions(context.arguments, environment: context.environment, needsCollector: false)
    }

    /// The `--json` output.
    struct Output: Encodable {
        var spool: String
        var pending: Int
        var oldestPendingAgeSeconds: Double?
        var dropped: Int
        var beyondBounds: Int
        /// Events the collector refused even alone as too large (413), kept aside.
        var refused: Int
        var lastSend: LastSend?
        var setAside: [String]
    }

    /// The last send in `--json` output.
    struct LastSend: Encodable {
        var time: Date
        var delivered: Int
        var failed: Int
        var error: String?
    }

    func run() async throws -> ExitCode {
        let reporter = try options.reporter()
        let status = try await ReportOptions.status(reporter)
        ReportOptions.announceSetAside(status, console: context.console)
        await ReportOptions.finish(reporter, console: context.console)
        let directory = options.configuration.spoolDirectory
        if context.arguments.isSet(JSONOutput.option) {
            let last = status.lastSend.map {
                LastSend(
                    time: Date(timeIntervalSince1970: $0.time), delivered: $0.delivered, failed: $0.failed,
                    error: $0.error)
            }
            context.console.write(
                try JSONOutput.string(
                    Output(
                        spool: directory, pending: status.pending, oldestPendingAgeSeconds: status.oldestPendingAge,
                        dropped: status.dropped, beyondBounds: status.beyondBounds, refused: status.refused,
                        lastSend: last,
                        setAside: status.setAside),
                    format: .pretty))
            return .ok
        }
        let age = status.oldestPendingAge.map { ", the oldest \(Self.age($0)) old" } ?? ""
        context.console.line("spool: \(TerminalText.sanitize(directory))")
        context.console.line("pending: \(status.pending) event\(status.pending == 1 ? "" : "s")\(age)")
        context.console.line("dropped by the spool's bounds: \(status.dropped)")
        if status.beyondBounds > 0 {
            context.console.line("past the bounds (the next watch or send drops them): \(status.beyondBounds)")
        }
        if status.refused > 0 {
            context.console.line("refused by the collector as too large (HTTP 413), set aside: \(status.refused)")
        }
        if let last = status.lastSend {
            let when = Date(timeIntervalSince1970: last.time).formatted(JSONOutput.dateStyle)
            let reason = last.error.map { " (\(TerminalText.sanitize($0)))" } ?? ""
            context.console.line("last send: \(when): \(last.delivered) delivered, \(last.failed) failed\(reason)")
        } else {
            context.console.line("last send: none yet")
        }
        return .ok
    }

    /// `42 s`, `3 min 5 s`, `2 h 10 min`, `3 d 4 h`.
    static func age(_ seconds: Double) -> String {
        let whole = Int(min(max(0, seconds), 1e12))
        switch whole {
        case ..<60: return "\(whole) s"
        case ..<3600: return "\(whole / 60) min \(whole % 60) s"
        case ..<86400: return "\(whole / 3600) h \(whole % 3600 / 60) min"
        default: return "\(whole / 86400) d \(whole % 86400 / 3600) h"
        }
    }
}
