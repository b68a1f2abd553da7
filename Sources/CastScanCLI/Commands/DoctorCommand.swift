import CastDiscovery
import CastDiscoveryBackends
import CastDiscoveryDNSSD
import CastDiscoveryMDNS

#if canImport(CastDiscoveryAvahi)
import CastDiscoveryAvahi
#endif

/// `cast-scan doctor`: checks what each discovery backend needs (avahi-daemon over D-Bus; UDP
/// sockets for the built-in mDNS querier; an interface with multicast), says which backend
/// `--backend auto` would choose and why, and what to fix.
struct DoctorCommand: Command {
    static let declaration = CommandDeclaration(
        name: "doctor", abstract: "Check avahi-daemon, D-Bus and multicast interfaces, and say what to fix.",
        options: [JSONOutput.option], inheritsOptions: false)

    let context: CommandContext

    init(_ context: CommandContext) { self.context = context }

    struct Check: Encodable {
        var name: String
        var ok: Bool
        var detail: String
        var fix: String?
        /// Whether discovery needs this check to pass (avahi-daemon does not, while the mDNS
        /// querier works).
        var required = true
    }

    func run() async throws -> ExitCode {
        var checks: [Check] = []
        let querier = MDNSBackend()
        let querierError = querier.unavailability()
        #if canImport(CastDiscoveryAvahi)
        do {
            let stream = try AvahiBackend().events(browsing: [DiscoveryCriteria.serviceType])
            var iterator = stream.makeAsyncIterator()
            _ = await iterator.next()
            checks.append(Check(name: "avahi-daemon", ok: true, detail: "reachable over the D-Bus system bus"))
        } catch {
            checks.append(Check(name: error.kind == .discoveryServiceUnreachable ? "dbus" : "avahi-daemon", ok: false,
                                detail: error.message, fix: error.fix, required: querierError != nil))
        }
        #endif
        if let error = DNSSDBackend().unavailability() {
            checks.append(Check(name: "dnssd", ok: false, detail: error.message, fix: error.fix, required: false))
        } else {
            checks.append(Check(name: "dnssd", ok: true, detail: "the dns_sd API answers (--backend dnssd can run)"))
        }
        if let querierError {
            checks.append(Check(name: "mdns querier", ok: false, detail: querierError.message, fix: querierError.fix))
        } else {
            let used = querier.interfaces()
            checks.append(Check(
                name: "mdns querier", ok: !used.isEmpty,
                detail: used.isEmpty ? "its sockets open, but no interface is usable" : "port 5353 shared; would ask on \(used.joined(separator: ", "))",
                fix: used.isEmpty ? "bring up a network interface with multicast and an address" : nil))
        }
        let interfaces = Self.multicastInterfaces()
        checks.append(Check(
            name: "multicast interfaces", ok: !interfaces.isEmpty,
            detail: interfaces.isEmpty ? "no interface is up with multicast (loopback aside)" : interfaces.joined(separator: ", "),
            fix: interfaces.isEmpty ? "bring up a network interface with multicast, e.g. `ip link set eth0 up multicast on`" : nil))
        do {
            let selection = try BackendChoice.auto.select()
            checks.append(Check(name: "backend", ok: true, detail: "--backend auto chooses \(selection.name): \(selection.reason)"))
        } catch {
            checks.append(Check(name: "backend", ok: false, detail: error.message, fix: error.fix))
        }

        if context.arguments.isSet(JSONOutput.option) {
            context.console.write(try JSONOutput.string(checks, format: .pretty))
        } else {
            let style = context.console.outputStyle
            for check in checks {
                let mark = check.ok ? style.paint("ok  ", .green) : check.required ? style.paint("FAIL", .red) : style.paint("note", .yellow)
                context.console.line("\(mark) \(check.name): \(TerminalText.sanitize(check.detail))")
                if let fix = check.fix { context.console.line("     fix: \(fix)") }
            }
        }
        return checks.allSatisfy { $0.ok || !$0.required } ? .ok : .unavailable
    }

    /// The names of the interfaces that are up, not loopback, with multicast on, sorted.
    static func multicastInterfaces() -> [String] {
        NetworkInterface.all().filter(\.isUsable).map(\.name).sorted()
    }
}
