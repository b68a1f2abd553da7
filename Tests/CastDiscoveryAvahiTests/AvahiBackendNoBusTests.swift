import CastDiscovery
import CastDiscoveryAvahi
import Foundation
import Testing

/// Without a system bus the backend fails at once with an error naming the bus. The bus
/// address comes from the environment, which this process's other suites read while they run:
/// the check runs in a child process (an exit test) that sets it for itself alone.
@Suite("Avahi backend without D-Bus")
struct AvahiBackendNoBusTests {
    /// Exit statuses of the child, one per check, so a failure says which check failed.
    enum Status: Int32 {
        case passed = 0, didNotThrow = 10, wrongKind, messageWithoutPath, fixWithoutDBus, waitingDidNotThrow, probeWrong
    }

    @Test(
        "no bus: a typed error naming the bus socket, from the browse and the probe, no hang, no crash (in a child process)"
    )
    func noBus() async {
        // The exit test's body runs in the child process only.
        await #expect(processExitsWith: .exitCode(Status.passed.rawValue)) {
            let missing = "/tmp/cast-discovery-no-bus-\(getpid())/socket"
            setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=\(missing)", 1)
            do throws(DiscoveryError) {
                _ = try AvahiBackend().events(browsing: ["_googlecast._tcp"])
                exit(Status.didNotThrow.rawValue)
            } catch {
                if error.kind != .discoveryServiceUnreachable { exit(Status.wrongKind.rawValue) }
                if !error.message.contains(missing) { exit(Status.messageWithoutPath.rawValue) }
                if error.fix?.contains("dbus") != true { exit(Status.fixWithoutDBus.rawValue) }
            }
            // The probe (the bus asked whether the daemon holds its name) says the same.
            let probe = AvahiBackend.unavailability()
            if probe?.kind != .discoveryServiceUnreachable || probe?.message.contains(missing) != true {
                exit(Status.probeWrong.rawValue)
            }
            // Waiting for a daemon cannot help without a bus either.
            if (try? AvahiBackend(waitForDaemon: true).events(browsing: ["_googlecast._tcp"])) != nil {
                exit(Status.waitingDidNotThrow.rawValue)
            }
            exit(Status.passed.rawValue)
        }
    }

    @Test("a browse type that is not a service type is refused before any connection")
    func badType() {
        do {
            _ = try AvahiBackend().events(browsing: ["not a type"])
            Issue.record("accepted a bad browse type")
        } catch {
            #expect(error.kind == .invalidBrowseType)
            #expect(error.message.contains("not a type"))
        }
    }
}
