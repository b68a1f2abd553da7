@testable import CastDiscoveryAvahi
import CastDiscovery
import Foundation
import Testing

/// What the Avahi backend says when avahi-daemon or D-Bus does not answer: installed but
/// stopped (start it, the way this machine starts daemons) or not installed (install it), on
/// stand-ins for `/` rather than the machine's own daemons.
@Suite("AvahiDiagnosis: a daemon that does not answer")
struct AvahiDiagnosisTests {
    /// A stand-in root with `run/systemd/system` when `systemd` and the given programs.
    static func services(systemd: Bool, programs: [String]) throws -> SystemServices {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cast-diagnosis-\(UUID().uuidString)")
            .path
        if systemd {
            try FileManager.default.createDirectory(
                atPath: root + "/run/systemd/system", withIntermediateDirectories: true)
        }
        try FileManager.default.createDirectory(atPath: root + "/usr/sbin", withIntermediateDirectories: true)
        for program in programs {
            #expect(
                FileManager.default.createFile(
                    atPath: root + "/usr/sbin/" + program, contents: Data("#!/bin/sh\n".utf8),
                    attributes: [.posixPermissions: 0o755]))
        }
        return SystemServices(root: root)
    }

    @Test(
        "avahi-daemon installed but stopped: not running, start it the one way this machine does",
        arguments: [true, false])
    func stopped(systemd: Bool) throws {
        let services = try Self.services(systemd: systemd, programs: ["avahi-daemon"])
        defer { try? FileManager.default.removeItem(atPath: services.root) }
        let error = AvahiDiagnosis.error(for: .noDaemon, services: services, busPresent: true)
        #expect(error.kind == .discoveryServiceMissing)
        #expect(error.message == "avahi-daemon is not running (Daemon not running)")
        #expect(
            error.fix
                == (systemd
                    ? "start it with `systemctl start avahi-daemon`" : "start it with `service avahi-daemon start`"))
    }

    @Test(
        "avahi-daemon not installed: says so, and how to install it (never how to start it)", arguments: [true, false])
    func notInstalled(systemd: Bool) throws {
        let services = try Self.services(systemd: systemd, programs: [])
        defer { try? FileManager.default.removeItem(atPath: services.root) }
        let error = AvahiDiagnosis.error(for: .noDaemon, services: services, busPresent: true)
        #expect(error.kind == .discoveryServiceMissing)
        #expect(error.message == "avahi-daemon is not installed")
        #expect(error.fix == "install it with `apt-get install avahi-daemon`")
    }

    @Test(
        "no system bus: start D-Bus the same way (or install it)",
        arguments: [(true, ["dbus-daemon"]), (false, ["dbus-daemon"]), (true, [])])
    func noBus(systemd: Bool, programs: [String]) throws {
        let services = try Self.services(systemd: systemd, programs: programs)
        defer { try? FileManager.default.removeItem(atPath: services.root) }
        let error = AvahiDiagnosis.error(for: .noDaemon, services: services, busPresent: false)
        #expect(error.kind == .discoveryServiceUnreachable)
        let how =
            programs.isEmpty
            ? "install it with `apt-get install dbus`"
            : systemd ? "start it with `systemctl start dbus`" : "start it with `service dbus start`"
        #expect(error.fix == "\(how) (or point DBUS_SYSTEM_BUS_ADDRESS at a running bus)")
    }
}
