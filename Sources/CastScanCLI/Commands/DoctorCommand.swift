import CastDiscovery
import CastDiscoveryAvahi
import Foundation

/// `cast-scan doctor`: checks what discovery needs (D-Bus, avahi-daemon, an interface with
/// multicast) and says what to fix.
struct DoctorCommand {
    let context: CommandContext

    init(_ context: CommandContext) { self.context = context }

    struct Check: Encodable {
        var name: String
        var ok: Bool
        var detail: String
        var fix: String?
    }

    func run() async throws -> ExitCode {
        var checks: [Check] = []
        var daemonMissing = false
        do {
            let stream = try AvahiBackend().events(browsing: [DiscoveryCriteria.serviceType])
            var iterator = stream.makeAsyncIterator()
            _ = await iterator.next()
            checks.append(Check(name: "avahi-daemon", ok: true, detail: "reachable over the D-Bus system bus"))
        } catch {
            daemonMissing = error.kind == .busUnavailable || error.kind == .daemonUnavailable
            checks.append(Check(name: error.kind == .busUnavailable ? "dbus" : "avahi-daemon", ok: false,
                                detail: error.message, fix: error.fix))
        }
        let interfaces = Self.multicastInterfaces()
        checks.append(Check(
            name: "multicast interfaces", ok: !interfaces.isEmpty,
            detail: interfaces.isEmpty ? "no interface is up with multicast (loopback aside)" : interfaces.joined(separator: ", "),
            fix: interfaces.isEmpty ? "bring up a network interface with multicast, e.g. `ip link set eth0 up multicast on`" : nil))

        if context.arguments.isSet(CastScanCommand.json) {
            context.console.write(try JSONOutput.string(checks, format: .pretty))
        } else {
            let style = context.console.outputStyle
            for check in checks {
                let mark = check.ok ? style.paint("ok  ", .green) : style.paint("FAIL", .red)
                context.console.line("\(mark) \(check.name): \(TerminalText.sanitize(check.detail))")
                if let fix = check.fix { context.console.line("     fix: \(fix)") }
            }
        }
        if daemonMissing { return .unavailable }
        return checks.allSatisfy(\.ok) ? .ok : .unavailable
    }

    /// The interfaces that are up, not loopback, with multicast on (from /sys/class/net).
    static func multicastInterfaces() -> [String] {
        let root = "/sys/class/net"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return names.sorted().filter { name in
            guard let text = try? String(contentsOfFile: "\(root)/\(name)/flags", encoding: .utf8),
                  let flags = Int(text.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst(2), radix: 16)
            else { return false }
            let up = 0x1, loopback = 0x8, multicast = 0x1000
            return flags & up != 0 && flags & loopback == 0 && flags & multicast != 0
        }
    }
}
