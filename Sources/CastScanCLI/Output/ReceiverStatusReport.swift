import CastChannel

/// `cast-scan status --json`: each receiver asked, with its status or the reason it gave none.
/// Keys are named as the Cast protocol names them.
package struct ReceiverStatusReport: Encodable {
    let schemaVersion = 1
    let receivers: [Receiver]

    package init(_ checks: [ReceiverCheck]) {
        receivers = checks.map { Receiver($0.result, auth: $0.authReport) }
    }

    struct Receiver: Encodable {
        var host: String
        var port: UInt16
        var reachable: Bool
        var error: ErrorObject?
        var connectSeconds: Double?
        var tlsSeconds: Double?
        var statusSeconds: Double?
        var tls: TLSParameters?
        var status: ReceiverStatus?
        /// The device-authentication verdict; nil when it was not asked (`--no-auth`, or no
        /// channel to ask on).
        var auth: DeviceAuthReport?

        init(_ result: ReceiverProbeResult, auth: DeviceAuthReport? = nil) {
            self.auth = auth
            host = result.host
            port = result.port
            reachable = result.isReachable
            error = result.error.map { ErrorObject(code: $0.code.rawValue, message: $0.message) }
            connectSeconds = result.connectDuration.map(ScanReport.milliseconds)
            tlsSeconds = result.tlsDuration.map(ScanReport.milliseconds)
            statusSeconds = result.statusDuration.map(ScanReport.milliseconds)
            tls = result.tls
            status = result.status
        }
    }

    struct ErrorObject: Encodable {
        var code: String
        var message: String
    }
}

/// `cast-scan status`'s table: one line per receiver, its app, volume, whether it answered and
/// (when asked) whether it is genuine; then a line for each receiver that is not.
package struct ReceiverStatusTable {
    static let formatter = TableFormatter(
        columns: [.init("RECEIVER"), .init("REACHABLE"), .init("APP"), .init("VOLUME"), .init("DETAIL")],
        trimsTrailingSpaces: true)
    static let authenticatingFormatter = TableFormatter(
        columns: [
            .init("RECEIVER"), .init("REACHABLE"), .init("AUTH"), .init("APP"), .init("VOLUME"), .init("DETAIL"),
        ],
        trimsTrailingSpaces: true)

    package let lines: [String]

    package init(_ checks: [ReceiverCheck], authenticating: Bool) {
        let rows = checks.map { check in
            let result = check.result
            let endpoint = ReceiverEndpoint(host: result.host, port: result.port).description
            let app = Self.application(result.status)
            let detail: String
            if let error = result.error {
                detail = "\(error.code.rawValue): \(error.message)"
            } else if let tls = result.tls {
                detail = "\(tls.protocol) \(tls.cipher)"
            } else {
                detail = ""
            }
            var row = [endpoint, result.isReachable ? "yes" : "no", app, Self.volume(result.status?.volume), detail]
            if authenticating {
                row.insert(DeviceAuthText.column(check.verdict, impostor: check.impostorOf != nil), at: 2)
            }
            return row.map { TerminalText.sanitize($0) }
        }
        var lines = (authenticating ? Self.authenticatingFormatter : Self.formatter).lines(for: rows)
        for check in checks {
            let endpoint = ReceiverEndpoint(host: check.result.host, port: check.result.port).description
            if let verdict = check.verdict {
                lines.append(
                    TerminalText.sanitize(
                        "\(endpoint): \(DeviceAuthText.sentence(verdict, impostorOf: check.impostorOf?.friendlyName))"))
            }
            if let saved = check.saved {
                let files = ([saved.response].compactMap { $0 } + [saved.tlsCertificate]).joined(separator: ", ")
                lines.append(TerminalText.sanitize("\(endpoint): saved \(files)"))
            }
        }
        self.lines = lines
    }

    /// The running app's name (its ID when it has none), `idle` when none runs, `-` when the
    /// status is unknown.
    static func application(_ status: ReceiverStatus?) -> String {
        guard let status else { return "-" }
        return status.runningApplication.map { $0.displayName ?? $0.appId ?? "?" } ?? "idle"
    }

    /// `45%`, `45% muted`, `-` when unknown.
    static func volume(_ volume: ReceiverVolume?) -> String {
        guard let volume else { return "-" }
        var text = volume.level.map { "\(Int(($0 * 100).rounded()))%" } ?? "?"
        if volume.muted == true { text += " muted" }
        return text
    }
}
