import CastDiscoveryReporting
import CastDiscovery

/// A command's failure with the exit status it calls for.
struct CommandFailure: Error {
    var message: String
    var exitCode: ExitCode

    /// The failure for a discovery error: 69 when the daemon or bus is missing, 65 for a bad
    /// input file, else 70.
    init(_ error: CastDiscovery.DiscoveryError) {
        message = error.description
        switch error.kind {
        case .discoveryServiceUnreachable, .discoveryServiceMissing: exitCode = .unavailable
        case .badInput: exitCode = .dataError
        case .daemonError: exitCode = .unavailable
        case .invalidBrowseType: exitCode = .usage
        case .other: exitCode = .software
        }
    }

    init(message: String, exitCode: ExitCode) {
        self.message = message
        self.exitCode = exitCode
    }

    /// The failure for an event-report error: 73 when a spool path was refused, 75 when the
    /// spool stayed locked by another process (try again), else 74.
    init(_ error: EventReportError) {
        message = error.description
        exitCode = error.isRefusal ? .cannotCreate : error.isTemporary ? .eventsRemain : .ioError
    }
}
