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
        // The querier's sockets are tried first: whether avahi-daemon is required depends on them.
        let querier = MDNSBackend()
        let querierError = querier.unavailability()
        var checks = [Check(name: "cast-scan", ok: true, detail: "version \(BuildInfo.description)", required: false)]
        #if canImport(CastDiscoveryAvahi)
        checks.append(await Self.avahiCheck(required: querierError != nil))
        #endif
        checks.append(Self.dnssdCheck())
        checks.append(Self.querierCheck(querier, unavailability: querierError))
        checks.append(Self.multicastInterfacesCheck())
        checks.append(Self.autoBackendCheck())
        try print(checks)
        return checks.allSatisfy { $0.ok || !$0.required } ? .ok : .unavailable
    }

    #if canImport(CastDiscoveryAvahi)
    /// Whether avahi-daemon answers a browse over D-Bus (`dbus` when the bus itself is missing).
    static func avahiCheck(required: Bool) async -> Check {
        do {
            let stream = try AvahiBackend().events(browsing: [DiscoveryCriteria.serviceType])
            var iterator = stream.makeAsyncIterator()
            _ = await iterator.next()
            return Check(name: "avahi-daemon", ok: true, detail: "reachable over the D-Bus system bus")
        } catch {
            return Check(
                name: error.kind == .discoveryServiceUnreachable ? "dbus" : "avahi-daemon", ok: false,
                detail: error.message, fix: error.fix, required: required)
        }
    }
    #endif

    /// Whether the dns_sd API answers (never required).
    static func dnssdCheck() -> Check {
        guard let error = DNSSDBackend().unavailability() else {
            return Check(name: "dnssd", ok: true, detail: "the dns_sd API answers (--backend dnssd can run)")
        }
        return Check(name: "dnssd", ok: false, detail: error.message, fix: error.fix, required: false)
    }

    /// Whether the built-in querier can open its sockets, whether it can share port 5353 (which
    /// `auto` needs to run it beside a daemon), and on which interfaces it would ask.
    static func querierCheck(_ querier: MDNSBackend, unavailability: DiscoveryError?) -> Check {
        if let unavailability {
            return Check(name: "mdns querier", ok: false, detail: unavailability.message, fix: unavailability.fix)
        }
        let used = querier.interfaces()
        if used.isEmpty {
            return Check(
                name: "mdns querier", ok: false, detail: "its sockets open, but no interface is usable",
                fix: "bring up a network interface with multicast and an address")
        }
        let asks = "would ask on \(used.joined(separator: ", "))"
        if let sharing = querier.sharingUnavailability() {
            return Check(
                name: "mdns querier", ok: false,
                detail:
                    "\(sharing.message): it hears only the answers to its own legacy-unicast queries, and `auto` uses a daemon alone; \(asks)",
                fix: sharing.fix, required: false)
        }
        return Check(name: "mdns querier", ok: true, detail: "port 5353 shared; \(asks)")
    }

    /// Whether any interface but loopback is up with multicast: the rule a one-shot listing
    /// checks too (``NetworkInterface/multicastUnavailability(_:)``).
    static func multicastInterfacesCheck() -> Check {
        let interfaces = NetworkInterface.all()
        if let unavailability = NetworkInterface.multicastUnavailability(interfaces) {
            return Check(
                name: "multicast interfaces", ok: false, detail: unavailability.message, fix: unavailability.fix)
        }
        return Check(
            name: "multicast interfaces", ok: true, detail: multicastInterfaces(interfaces).joined(separator: ", "))
    }

    /// Which backend `--backend auto` chooses, and why.
    static func autoBackendCheck() -> Check {
        do {
            let selection = try BackendChoice.auto.select()
            return Check(
                name: "backend", ok: true, detail: "--backend auto chooses \(selection.name): \(selection.reason)")
        } catch {
            return Check(name: "backend", ok: false, detail: error.message, fix: error.fix)
        }
    }

    /// The checks as JSON (`--json`) or one marked line each, with the fix below a failure.
    func print(_ checks: [Check]) throws {
        let console = context.console
        if context.arguments.isSet(JSONOutput.option) {
            console.write(try JSONOutput.string(checks, format: .pretty))
            return
        }
        let style = console.outputStyle
        for check in checks {
            let mark =
                check.ok
                ? style.paint("ok  ", .green)
                : check.required ? style.paint("FAIL", .red) : style.paint("note", .yellow)
            console.line("\(mark) \(check.name): \(TerminalText.sanitize(check.detail))")
            if let fix = check.fix { console.line("     fix: \(fix)") }
        }
    }

    /// The names of the interfaces that are up, not loopback, with multicast on, sorted.
    static func multicastInterfaces(_ interfaces: [NetworkInterface] = NetworkInterface.all()) -> [String] {
        interfaces.filter(\.isUsable).map(\.name).sorted()
    }
}
