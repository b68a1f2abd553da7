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
        #expect(AvahiError.disconnected.description.contains("disconnected"))
    }

    @Test("every Avahi code has a unique Swift name and a message")
    func names() {
        let codes = (1...53).map { AvahiError(code: -Int32($0)) }
        #expect(Set(codes.map(\.name)).count == 53)
        #expect(codes.allSatisfy { !$0.name.hasPrefix("code") && !$0.message.isEmpty })
        #expect(AvahiError.noDaemon.name == "noDaemon")
        #expect(AvahiError(code: -33).name == "invalidServiceSubtype")
        #expect(AvahiError(code: -99).name == "code-99")
    }

    @Test("bus addresses are parsed for their socket path")
    func busAddress() {
        #expect(AvahiDiagnosis.socketPath(of: "unix:path=/run/dbus/system_bus_socket") == "/run/dbus/system_bus_socket")
        #expect(AvahiDiagnosis.socketPath(of: "unix:path=/tmp/x,guid=1234") == "/tmp/x")
        #expect(AvahiDiagnosis.socketPath(of: "unix:abstract=/tmp/x") == nil)
        #expect(AvahiDiagnosis.socketPath(of: "tcp:host=localhost;unix:path=/y") == "/y")
    }
}
