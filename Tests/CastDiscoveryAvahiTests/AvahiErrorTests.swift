@testable import CastDiscoveryAvahi
import Testing

@Suite("AvahiError")
struct AvahiErrorTests {
    @Test("messages come from Avahi, with -47 and -48 put right")
    func messages() {
        #expect(AvahiError.timeout.message == "Timeout reached")
        #expect(AvahiError.noDaemon.message == "Daemon not running")
        #expect(AvahiError(code: -47).message == "Invalid DNS class")
        #expect(AvahiError(code: -48).message == "Invalid DNS type")
        #expect(AvahiError.disconnected.description.contains("-23"))
    }

    @Test("every code Avahi defines has its own message; one past them is Avahi's unknown-code text")
    func everyCode() {
        let codes = (AvahiError.lastCode...(-1)).map { AvahiError(code: $0) }
        #expect(codes.count == 53)
        #expect(Set(codes.map(\.message)).count == codes.count)
        let unknown = AvahiError(code: AvahiError.lastCode - 1).message
        #expect(!codes.map(\.message).contains(unknown))
        #expect(AvahiError.noDaemon.code == -26 && AvahiError.invalidServiceSubtype.code == -33)
    }

    @Test("bus addresses are parsed for their socket path")
    func busAddress() {
        #expect(AvahiDiagnosis.socketPath(of: "unix:path=/run/dbus/system_bus_socket") == "/run/dbus/system_bus_socket")
        #expect(AvahiDiagnosis.socketPath(of: "unix:path=/tmp/x,guid=1234") == "/tmp/x")
        #expect(AvahiDiagnosis.socketPath(of: "unix:abstract=/tmp/x") == nil)
        #expect(AvahiDiagnosis.socketPath(of: "tcp:host=localhost;unix:path=/y") == "/y")
    }
}
