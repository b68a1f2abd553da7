import CastChannel
import CastDiscovery

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `watch --table`: the device table redrawn in place on a terminal, as `top` and `watch(1)`
/// do: from the top left, each line cut to the terminal's width, as many as its height holds,
/// the rest of the screen cleared. It is redrawn at most every ``interval``, and only when the
/// list (its generation), the channel states (`--status`, their revision) or the terminal's
/// size changed. The last table stays
/// on the screen when the watch ends.
struct LiveTable: Sendable {
    /// The shortest time between two redraws.
    static let interval: Duration = .milliseconds(250)

    let console: Console
    let manager: DiscoveryManager
    /// `--status`: the channel's columns from here.
    let states: ReceiverStates?
    let backend: String

    /// What was drawn last: the list's generation, the states' revision, the size.
    private struct Drawn: Equatable {
        var generation: Int
        var revision: Int
        var size: TerminalSize
    }

    /// The terminal's size in columns and rows (80 x 24 when it does not say).
    struct TerminalSize: Equatable {
        var columns: Int
        var rows: Int

        static func current() -> TerminalSize {
            var size = winsize()
            guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
                return TerminalSize(columns: 80, rows: 24)
            }
            return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
        }
    }

    /// Whether standard output is a terminal (`--table` needs one).
    static var isAvailable: Bool { isatty(1) == 1 }

    /// Redraws until the task is cancelled, then once more.
    func run(clock: some Clock<Duration> = ContinuousClock()) async {
        var drawn: Drawn?
        while !Task.isCancelled {
            drawn = redraw(after: drawn)
            try? await clock.sleep(for: Self.interval)
        }
        _ = redraw(after: drawn)
    }

    /// Draws the table unless nothing changed since `last`; what it drew.
    private func redraw(after last: Drawn?) -> Drawn {
        let list = manager.list
        let now = Drawn(generation: list.generation, revision: states?.revision ?? 0, size: .current())
        guard now != last else { return now }
        console.write(
            Self.frame(devices: list.devices, states: states, backend: backend, size: now.size, time: TimeOfDay.now()))
        return now
    }

    /// One screen: cursor home, a heading, the table, each line cut to the width and ended by
    /// an erase to its end, then the rest of the screen erased.
    static func frame(devices: [CastDevice], states: ReceiverStates?, backend: String, size: TerminalSize, time: String)
        -> String
    {
        let count = devices.count
        var lines = [
            "cast-scan watch: \(count) device\(count == 1 ? "" : "s"), backend \(TerminalText.sanitize(backend)), \(time)",
            "",
        ]
        if devices.isEmpty {
            lines.append("No Cast device is listed yet.")
        } else {
            let table = DeviceTable.render(devices, states: states)
            lines += table.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
        let shown = lines.prefix(max(1, size.rows - 1)).map { DisplayWidth.truncate($0, toWidth: size.columns) }
        var text = "\u{1B}[H"
        for line in shown { text += line + "\u{1B}[K\n" }
        if lines.count > shown.count {
            text += "… \(lines.count - shown.count) more lines (a taller terminal shows them)\u{1B}[K\n"
        }
        return text + "\u{1B}[J"
    }
}
