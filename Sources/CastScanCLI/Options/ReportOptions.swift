import CastDiscovery
import CastDiscoveryReporting

/// Where events are stored and sent, from the command line (`watch --report`, `report`).
struct ReportOptions: Sendable {
    static let report = OptionDeclaration.value(
        "report", valueName: "URL",
        help:
            "store each device event, then POST them in batches to this HTTP collector (credentials only from $\(EventCollector.credentialsVariable), as user:password)"
    )
    static let spool = OptionDeclaration.value(
        "spool", valueName: "DIR",
        help: "where events wait for the collector (default $XDG_STATE_HOME/cast-scan/reports)")
    static let spoolMaxEvents = OptionDeclaration.value(
        "spool-max-events", valueName: "N",
        help: "keep at most N undelivered events; past it the oldest are dropped and counted (default 100000)")
    static let spoolMaxAge = OptionDeclaration.value(
        "spool-max-age", valueName: "SECONDS",
        help: "drop undelivered events older than this, counted (default 2592000: 30 days)")
    static let retryMax = OptionDeclaration.value(
        "report-retry-max", valueName: "SECONDS",
        help: "longest wait between tries to reach the collector (default 60)")
    static let batch = OptionDeclaration.value(
        "report-batch", valueName: "N",
        help:
            "send at most N events in one POST, 1 to \(EventReporter.maximumBatchSize) (default 100); a collector that answers 413 gets half as many, down to one"
    )

    /// The options of the spool alone (`report status`).
    static let spoolDeclarations = [spool, spoolMaxEvents, spoolMaxAge]
    /// Every report option (`watch`, `report send`).
    static let declarations = [report] + spoolDeclarations + [retryMax, batch]

    var configuration: EventReporter.Configuration

    /// Reads the options; `--report` is required when `needsCollector`.
    /// The report options of a command whose reports are optional (`watch`, `serve`): nil when
    /// none is given, else read as with a collector required.
    static func ifGiven(_ arguments: ParsedArguments, environment: [String: String]) throws(UsageError)
        -> ReportOptions?
    {
        guard declarations.contains(where: { arguments.isSet($0) }) else { return nil }
        return try ReportOptions(arguments, environment: environment, needsCollector: true)
    }

    init(_ arguments: ParsedArguments, environment: [String: String], needsCollector: Bool) throws(UsageError) {
        var collector: EventCollector?
        if let url = arguments.value(of: Self.report) {
            do throws(EventReportError) {
                collector = try EventCollector(url: url, credentials: environment[EventCollector.credentialsVariable])
            } catch {
                let expected: String
                switch error {
                case .credentialsInURL:
                    expected =
                        "a URL without a user name or password (give them as user:password in $\(EventCollector.credentialsVariable))"
                case .invalidCollector(_, let reason):
                    expected = "an http:// or https:// URL with a host (\(reason))"
                case .invalidCredentials(let reason):
                    throw UsageError.invalidEnvironment(
                        variable: EventCollector.credentialsVariable,
                        problem:
                            "cannot be used as the collector's credentials: \(reason) (give user:password on one line)")
                default:
                    expected = "a collector URL"
                }
                throw UsageError.invalidValue(
                    option: Self.report.displayName, value: EventCollector.redacted(url), expected: expected)
            }
        } else if needsCollector {
            throw UsageError.missingArgument(Self.report.displayName + " URL")
        }
        let maximumEvents =
            try arguments.value(of: Self.spoolMaxEvents, expected: "a whole number from 1 to 10000000") {
                text -> Int? in
                guard let value = Int(text), value >= 1, value <= 10_000_000 else { return nil }
                return value
            } ?? SpoolLimits().maximumEvents
        let maximumAge =
            try arguments.seconds(of: Self.spoolMaxAge, in: 1...(10 * 365 * 86400)) ?? SpoolLimits().maximumAge.seconds
        let retryMaximum =
            try arguments.seconds(of: Self.retryMax, in: 0.01...86400) ?? RetrySchedule().maximumDelay.seconds
        let batchSize =
            try arguments.value(of: Self.batch, expected: "a whole number from 1 to \(EventReporter.maximumBatchSize)")
        { text -> Int? in
            guard let value = Int(text), (1...EventReporter.maximumBatchSize).contains(value) else { return nil }
            return value
        } ?? 100
        configuration = EventReporter.Configuration(
            collector: collector,
            spoolDirectory: arguments.value(of: Self.spool) ?? SenderOptions.stateDirectory(environment) + "/reports",
            limits: SpoolLimits(maximumEvents: maximumEvents, maximumAge: .seconds(clamping: maximumAge)),
            retry: RetrySchedule(
                initialDelay: min(RetrySchedule().initialDelay, .seconds(clamping: retryMaximum)),
                maximumDelay: .seconds(clamping: retryMaximum)),
            batchSize: batchSize,
            userAgent: "cast-scan")
    }

    /// Opens the spool (setting a damaged one aside) and prepares the collector.
    func reporter() throws(CommandFailure) -> EventReporter {
        do throws(EventReportError) {
            return try EventReporter(configuration: configuration)
        } catch {
            throw CommandFailure(error)
        }
    }

    /// The spool's status, as a command failure when the spool cannot be read.
    static func status(_ reporter: EventReporter) async throws(CommandFailure) -> SpoolStatus {
        do throws(EventReportError) {
            return try await reporter.status()
        } catch {
            throw CommandFailure(error)
        }
    }

    /// Drops the events past the spool's bounds (said on standard error at ``finish(_:console:)``).
    static func applyLimits(_ reporter: EventReporter) async throws(CommandFailure) {
        do throws(EventReportError) {
            try await reporter.applyLimits()
        } catch {
            throw CommandFailure(error)
        }
    }

    /// Says on standard error what the spool dropped or recovered from (a send's result is the
    /// command's own to say).
    static func announce(_ report: EventReport, console: Console) {
        switch report {
        case .sent:
            break
        case .dropped(let count):
            console.errorLine(
                "cast-scan: report: the spool is full: dropped the \(count) oldest undelivered event\(count == 1 ? "" : "s")"
            )
        case .recovered(let recovery):
            console.errorLine("cast-scan: report: \(TerminalText.sanitize(recovery.description))")
        }
    }

    /// Ends `reporter` (``EventReporter/finish()``) and says what it reported and nobody read:
    /// drops and recoveries (for the commands that do not watch its reports).
    static func finish(_ reporter: EventReporter, console: Console) async {
        await reporter.finish()
        for await report in reporter.reports { announce(report, console: console) }
    }

    /// Says on standard error that the collector refused events even one at a time (413).
    static func announceRefused(_ count: Int, console: Console) {
        console.errorLine(
            "cast-scan: report: the collector refused \(count) event\(count == 1 ? "" : "s") even alone as too large (HTTP 413): "
                + "set aside in the spool (report status counts them), not sent again")
    }

    /// Says on standard error which damaged spool files were set aside.
    static func announceSetAside(_ status: SpoolStatus, console: Console) {
        for file in status.setAside {
            console.errorLine(
                "cast-scan: the event spool was damaged: set aside as \(TerminalText.sanitize(file)); a new one is used"
            )
        }
    }
}
