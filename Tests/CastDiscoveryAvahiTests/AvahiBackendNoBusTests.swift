import CastDiscovery
import CastDiscoveryAvahi
import Foundation
import Testing

/// Without a system bus the backend fails at once with an error naming the bus.
@Suite("Avahi backend without D-Bus", .serialized)
struct AvahiBackendNoBusTests {
    @Test("no bus: a typed error, no hang, no crash")
    func noBus() throws {
        let missing = "/tmp/cast-discovery-no-bus-\(getpid())/socket"
        let previous = ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"]
        setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=\(missing)", 1)
        defer {
            if let previous { setenv("DBUS_SYSTEM_BUS_ADDRESS", previous, 1) } else { unsetenv("DBUS_SYSTEM_BUS_ADDRESS") }
        }
        do {
            _ = try AvahiBackend().events(browsing: ["_googlecast._tcp"])
            Issue.record("browsing without a bus did not throw")
        } catch {
            #expect(error.kind == .discoveryServiceUnreachable)
            #expect(error.message.contains(missing))
            #expect(error.fix?.contains("dbus") == true)
        }
        // Waiting for a daemon cannot help without a bus either.
        #expect(throws: DiscoveryError.self) { try AvahiBackend(waitForDaemon: true).events(browsing: ["_googlecast._tcp"]) }
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
