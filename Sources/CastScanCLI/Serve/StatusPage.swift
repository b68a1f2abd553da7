import CastChannel
import CastDiscovery
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The page `GET /` shows a person: the devices listed and gone, the backend and its state,
/// reloaded every few seconds. One self-contained document (inline style, no script, no
/// external assets); every text from the network escaped.
enum StatusPage {
    /// Seconds between reloads.
    static let refreshSeconds = 5

    /// The page for `fleet` at `now`, listing at most `maxDevices` devices; with `channel`
    /// (`serve --status`), what each plays, its volume and whether it answers.
    static func html(_ fleet: Fleet, at now: Date, maxDevices: Int, channel: ReceiverStates? = nil) -> String {
        let listed = fleet.listed, gone = fleet.gone
        let shownListed = listed.prefix(max(0, maxDevices))
        let shownGone = gone.prefix(max(0, maxDevices - shownListed.count))
        let state = fleet.downReason.map { "down: \($0)" } ?? "discovery running"
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="refresh" content="\(refreshSeconds)">
            <title>cast-scan: \(listed.count) Cast device\(listed.count == 1 ? "" : "s")</title>
            <style>
            body { font: 15px/1.4 system-ui, sans-serif; margin: 1rem; color: #1a1a1a; background: #fafafa; }
            h1 { font-size: 1.3rem; margin: 0 0 .3rem; }
            p.state { margin: 0 0 1rem; color: #444; }
            p.state .down { color: #a40000; font-weight: 600; }
            .scroll { overflow-x: auto; }
            table { border-collapse: collapse; width: 100%; background: #fff; }
            th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #ddd; white-space: nowrap; }
            td.name { white-space: normal; overflow-wrap: anywhere; min-width: 8em; }
            th { background: #eee; font-weight: 600; }
            tr.busy td.status { color: #8a5a00; font-weight: 600; }
            h2 { font-size: 1.05rem; margin: 1.2rem 0 .4rem; }
            footer { margin-top: 1rem; color: #666; font-size: .85rem; }
            @media (max-width: 640px) {
              thead { display: none; }
              table, tbody, tr, td { display: block; width: auto; }
              tr { border-bottom: 1px solid #ddd; padding: .4rem 0; }
              td { border: 0; padding: .1rem .5rem; white-space: normal; overflow-wrap: anywhere; }
              td[data-label]::before { content: attr(data-label) ": "; color: #666; }
              td.name { font-weight: 600; }
            }
            </style>
            </head>
            <body>
            <h1>\(listed.count) Cast device\(listed.count == 1 ? "" : "s")</h1>
            <p class="state">Backend <b>\(escape(fleet.backend))</b> (\(escape(fleet.backendReason))): <span class="\(fleet.discoveryUp ? "up" : "down")">\(escape(state))</span>. Serving since \(time(fleet.started, now: now)).</p>

            """
        let channelHeads =
            channel == nil ? "" : "<th>Playing</th><th>Volume</th><th>Reachable</th><th>Genuine</th>"
        let impostors = channel.map { channel in
            DeviceImpostor.find(in: listed.map(\.device)) {
                channel.entry(for: $0.uniqueID)?.authentication?.authenticated
            }
        }
        page +=
            "<div class=\"scroll\"><table id=\"devices\">\n<thead><tr><th>Name</th><th>Kind</th><th>Model</th><th>Address</th><th>Status</th>\(channelHeads)<th>Listed since</th></tr></thead>\n<tbody>\n"
        for member in shownListed {
            let device = member.device
            let address = device.networkAddress.map { $0.endpoint(port: device.port) } ?? "-"
            let status =
                device.status == .busy
                ? "busy" + (device.statusText.map { ": \($0)" } ?? "") : device.status.description
            page +=
                "<tr class=\"device\(device.status == .busy ? " busy" : "")\" data-unique-id=\"\(escape(device.uniqueID))\">"
            page +=
                "<td class=\"name\">\(escape(device.friendlyName))</td><td data-label=\"Kind\">\(escape(device.kind.description))</td>"
            page +=
                "<td data-label=\"Model\">\(escape(device.modelName ?? "-"))</td><td data-label=\"Address\">\(escape(address))</td>"
            page += "<td class=\"status\" data-label=\"Status\">\(escape(status))</td>"
            if let channel {
                let cells = DeviceTable.channelCells(channel.entry(for: device.uniqueID)?.result)
                page +=
                    "<td class=\"app\" data-label=\"Playing\">\(escape(cells[0]))</td><td data-label=\"Volume\">\(escape(cells[1]))</td>"
                page += "<td class=\"reachable\" data-label=\"Reachable\">\(escape(cells[2]))</td>"
                let verdict = channel.entry(for: device.uniqueID)?.authentication
                let auth = DeviceAuthText.column(verdict, impostor: impostors?[device.uniqueID] != nil)
                let title = verdict.map {
                    DeviceAuthText.sentence($0, impostorOf: impostors?[device.uniqueID]?.friendlyName)
                }
                page +=
                    "<td class=\"auth\" data-label=\"Genuine\"\(title.map { " title=\"\(escape($0))\"" } ?? "")>\(escape(auth))</td>"
            }
            page += "<td data-label=\"Listed since\">\(time(member.listedSince, now: now))</td></tr>\n"
        }
        if listed.isEmpty {
            page += "<tr><td colspan=\"\(channel == nil ? 6 : 10)\">No Cast device is listed.</td></tr>\n"
        }
        page += "</tbody></table></div>\n"
        if listed.count > shownListed.count {
            page += "<p>\(listed.count - shownListed.count) more devices are not shown (past --max-devices).</p>\n"
        }
        if !gone.isEmpty {
            page +=
                "<h2>Gone</h2>\n<div class=\"scroll\"><table id=\"gone\">\n<thead><tr><th>Name</th><th>Kind</th><th>Model</th><th>Gone since</th></tr></thead>\n<tbody>\n"
            for member in shownGone {
                let device = member.device
                page +=
                    "<tr class=\"gone\" data-unique-id=\"\(escape(device.uniqueID))\"><td class=\"name\">\(escape(device.friendlyName))</td>"
                page +=
                    "<td data-label=\"Kind\">\(escape(device.kind.description))</td><td data-label=\"Model\">\(escape(device.modelName ?? "-"))</td>"
                page += "<td data-label=\"Gone since\">\(member.goneAt.map { time($0, now: now) } ?? "-")</td></tr>\n"
            }
            page += "</tbody></table></div>\n"
        }
        page +=
            "<footer>cast-scan \(escape(BuildInfo.version)) · <a href=\"/metrics\">metrics</a> · <a href=\"/devices\">devices (JSON)</a> · reloads every \(refreshSeconds) s</footer>\n</body>\n</html>\n"
        return page
    }

    /// `text` safe inside HTML text and attribute values: terminal controls, bidi overrides
    /// and undecodable bytes shown as escapes, then `& < > " '` as character references.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in TerminalText.sanitize(text) {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// `date` as "3 min ago", with the exact UTC time as the element's `datetime` and title.
    private static func time(_ date: Date, now: Date) -> String {
        let exact = exactStyle.format(date)
        return "<time datetime=\"\(exact)\" title=\"\(exact)\">\(ago(now.timeIntervalSince(date)))</time>"
    }

    private static let exactStyle = Date.ISO8601FormatStyle(timeZone: .gmt)

    /// A duration in the past, in its largest whole unit.
    static func ago(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "-" }
        let whole = Int(max(0, seconds.rounded(.down)))
        switch whole {
        case ..<60: return "\(whole) s ago"
        case ..<3600: return "\(whole / 60) min ago"
        case ..<86400: return "\(whole / 3600) h ago"
        default: return "\(whole / 86400) d ago"
        }
    }
}
