import CastDiscovery
import CastReceiverPublisher

/// The lines `cast-scan publish` prints: on stdout what is published and changed, one line
/// each with the time; on stderr name conflicts, the daemon's going and coming, failures.
final class PublishPrinter: Sendable {
    let console: Console
    /// The instance names as published (an alternative after a conflict), by registration id.
    private let names: LockedValue<[String]>
    private let receivers: [SimulatedReceiver]
    private let daemonAway = LockedValue(false)

    init(console: Console, receivers: [SimulatedReceiver]) {
        self.console = console
        self.receivers = receivers
        names = LockedValue(receivers.map(\.instanceName))
    }

    private func name(_ id: Int) -> String {
        names.withLock { $0.indices.contains(id) ? $0[id] : "registration \(id)" }
    }

    private func line(_ text: String) {
        console.line("\(TimeOfDay.now()) \(TerminalText.sanitize(text))")
    }

    /// Prints a daemon event; returns the exit status when publishing cannot go on.
    func print(_ event: PublishingEvent) -> ExitCode? {
        switch event {
        case .established(let id, let published):
            names.withLock { if $0.indices.contains(id) { $0[id] = published } }
            guard receivers.indices.contains(id) else { return nil }
            let receiver = receivers[id]
            let apps = receiver.appIDs.isEmpty ? "no app IDs" : "apps \(receiver.appIDs.joined(separator: " "))"
            line(
                "published \(published): \"\(receiver.value(of: "fn") ?? "")\" (\(receiver.value(of: "md") ?? "?"), port \(receiver.port), \(apps))"
            )
        case .renamed(let id, let from, let to):
            names.withLock { if $0.indices.contains(id) { $0[id] = to } }
            console.errorLine(
                "cast-scan: publish: name conflict: \(TerminalText.sanitize(from)) is taken on the network; publishing as \(TerminalText.sanitize(to)), the daemon's next name"
            )
            line("renamed \(from) to \(to)")
        case .failed(let id, let error):
            console.errorLine(
                "cast-scan: publish: \(TerminalText.sanitize(name(id))): \(TerminalText.sanitize(error.description))")
            return CommandFailure(error).exitCode
        case .stopped(let error):
            console.errorLine(
                "cast-scan: publish: \(TerminalText.sanitize(error.description)); nothing is published any more")
            return CommandFailure(error).exitCode
        case .daemonLost(let reason):
            daemonAway.withLock { $0 = true }
            console.errorLine(
                "cast-scan: publish: lost the daemon (\(TerminalText.sanitize(reason))); everything is published again when it returns"
            )
        case .daemonRunning:
            let wasAway = daemonAway.withLock { away in
                defer { away = false }
                return away
            }
            if wasAway { console.errorLine("cast-scan: publish: the daemon is back; publishing everything again") }
        }
        return nil
    }

    /// Prints a change made.
    func applied(_ change: ReceiverChange, _ result: CastReceiverPublisher.Applied) {
        let instance = name(result.id)
        let receiver = result.receiver
        switch change.action {
        case .withdraw: line("withdrew \(instance)")
        case .return: line("returned \(instance)")
        case .rename: line("changed \(instance): fn=\(receiver.value(of: "fn") ?? "")")
        case .startApp, .stopApp:
            line("changed \(instance): st=\(receiver.value(of: "st") ?? "") rs=\(receiver.value(of: "rs") ?? "")")
        case .set(let settings):
            line(
                "changed \(instance): \(settings.map { "\($0.key)=\(receiver.value(of: $0.key) ?? "")" }.joined(separator: " "))"
            )
        case .volume:
            line(
                "changed \(instance): volume \(NumberText.fixed(receiver.volumeLevel, digits: 2))\(receiver.isMuted ? " muted" : "")"
            )
        }
    }
}
