/// `cast-scan(1)` in roff (man macros), generated from the command declarations: every
/// command with the options its `--help` lists, the exit statuses, environment, the packaged
/// files and examples.
enum ManPage {
    static func text(root: CommandDeclaration) -> String {
        let reference = CommandReference(root: root)
        var out: [String] = [
            ".TH CAST-SCAN 1 \"\" \"cast-scan \(escape(BuildInfo.version))\" \"User Commands\"",
            ".SH NAME",
            "cast-scan \\- \(escape(root.abstract))",
            ".SH SYNOPSIS",
        ]
        for entry in reference.entries { out += [".PP", ".B " + escape(entry.usage)] }
        out += [".SH DESCRIPTION", escape(root.abstract)]
        out += [".SH COMMANDS"]
        for entry in reference.entries {
            out += [".SS \"" + escape(entry.path.joined(separator: " ")) + "\"", escape(entry.command.abstract)]
            if let discussion = entry.command.discussion, entry.chain.count > 1 { out += [".PP", escape(discussion)] }
            for positional in entry.command.positionals {
                out += [".TP", "\\fI\(escape(positional.name))\\fR", escape(positional.help)]
            }
            for option in entry.options { out += [".TP", optionTitle(option), escape(optionHelp(option))] }
        }
        out += [".SH EXIT STATUS"]
        for code in ExitCode.allCases { out += [".TP", "\\fB\(code.rawValue)\\fR", escape(code.summary)] }
        out += [".SH ENVIRONMENT"]
        for (name, meaning) in environment { out += [".TP", "\\fB\(name)\\fR", escape(meaning)] }
        out += [".SH FILES"]
        for (path, meaning) in files { out += [".TP", "\\fI" + escape(path) + "\\fR", escape(meaning)] }
        out += [".SH EXAMPLES"]
        for (command, meaning) in examples { out += [".TP", "\\fB" + escape(command) + "\\fR", escape(meaning)] }
        out += [
            ".SH SEE ALSO",
            "\\fBavahi-browse\\fR(1), \\fBavahi-daemon\\fR(8), \\fBsystemctl\\fR(1), \\fBpromtool\\fR(1)",
        ]
        return out.joined(separator: "\n") + "\n"
    }

    /// `\fB\-\-backend\fR \fINAME\fR`, with the short name first when there is one.
    static func optionTitle(_ option: OptionDeclaration) -> String {
        var names: [String] = []
        if let short = option.shortName { names.append("\\fB\\-\(escape(String(short)))\\fR") }
        if let long = option.longName { names.append("\\fB\\-\\-\(escape(long))\\fR") }
        var title = names.joined(separator: ", ")
        if case .value(let valueName, _) = option.kind { title += " \\fI\(escape(valueName))\\fR" }
        return title
    }

    static func optionHelp(_ option: OptionDeclaration) -> String {
        var help = option.help
        if case .value(_, let allowed?) = option.kind { help += " (one of: \(allowed.joined(separator: ", ")))" }
        if option.isRepeatable { help += "; may be given more than once" }
        return help
    }

    /// Text made safe for roff: backslashes and hyphens escaped, no line starting with a
    /// control character, no line breaks.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case "\n", "\r": out += " "
            default: out.append(character)
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    static let environment: [(String, String)] = [
        (
            "XDG_STATE_HOME",
            "where the sender's state (cast-scan/sender.json) and the event spool (cast-scan/reports) are kept; default ~/.local/state"
        ),
        (
            "CAST_SCAN_REPORT_CREDENTIALS",
            "user:password for the collector of watch --report and report send (HTTP basic); never in the URL"
        ),
        ("NO_COLOR", "when set, no colour in the output"),
        ("DBUS_SYSTEM_BUS_ADDRESS", "the D-Bus system bus the Avahi backend connects to"),
    ]

    /// The files the Debian package installs beside the binary, with what each is for.
    static let files: [(String, String)] = [
        (
            "/usr/share/doc/cast-scan/examples/",
            "a recorded network (replay/, for --replay), a sender scenario that plays it (scenarios/, for simulate), and a Prometheus scrape configuration with alert rules and their promtool tests (prometheus/)"
        ),
        ("/etc/default/cast-scan", "the options of cast-scan serve when cast-scan.service runs it (CAST_SCAN_OPTIONS)"),
        (
            "/lib/systemd/system/cast-scan.service",
            "runs cast-scan serve as a dynamic user with its state in /var/lib/cast-scan; installed disabled: systemctl enable --now cast-scan"
        ),
    ]

    static let examples: [(String, String)] = [
        (
            "cast-scan",
            "list the Cast devices on the network (avahi-daemon if it answers, else the built-in mDNS querier)"
        ),
        ("cast-scan --json --app-id CC1AD845", "devices that can run the Default Media Receiver, as JSON"),
        ("cast-scan --ios 17 --permission denied", "what an iOS app that was denied local network access would see"),
        ("cast-scan --host 192.168.1.20 --backend hosts", "ask one device directly, on networks that drop multicast"),
        ("cast-scan watch --jsonl", "every device as it comes, changes and goes, one JSON object a line"),
        (
            "cast-scan watch --report https://collector.example/events",
            "keep a history of the devices at a collector, stored first while it is down"
        ),
        ("cast-scan report status", "how many events wait for the collector"),
        ("cast-scan plist check Info.plist --sdk 4.8.3 --ios 15", "check an iOS app's Info.plist for Cast discovery"),
        ("cast-scan doctor", "check avahi-daemon, D-Bus and the multicast interfaces"),
    ]
}
