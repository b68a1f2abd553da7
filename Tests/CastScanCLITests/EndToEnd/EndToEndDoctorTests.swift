@testable import CastScanCLI
import Foundation
import Testing

/// `doctor`'s fixes for avahi-daemon and D-Bus: "not installed" apart from "installed but not
/// running", and one way to start a daemon (`systemctl start` under systemd, else `service
/// ... start`) on every line. The machine is a stand-in: the debug build's
/// `CAST_DISCOVERY_SYSTEM_ROOT` names a directory in place of `/` (with or without
/// `run/systemd/system` and the programs), the bus is a missing socket or a private
/// dbus-daemon of the test's own on which no avahi-daemon runs. No real daemon is touched.
@Suite("cast-scan doctor: how to start or install a daemon")
struct EndToEndDoctorTests {
    /// A stand-in for `/`: `run/systemd/system` when `systemd`, and an executable for each of
    /// `programs` (paths under the root).
    static func root(in directory: TestDirectory, systemd: Bool, programs: [String]) throws -> String {
        let root = directory.path("root")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        if systemd {
            try FileManager.default.createDirectory(
                atPath: root + "/run/systemd/system", withIntermediateDirectories: true)
        }
        for program in programs {
            try FileManager.default.createDirectory(
                atPath: root + "/" + (program as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            #expect(
                FileManager.default.createFile(
                    atPath: root + "/" + program, contents: Data("#!/bin/sh\nexit 1\n".utf8),
                    attributes: [.posixPermissions: 0o755]))
        }
        return root
    }

    /// The one start command the lines may name, and the one they must not.
    static func commands(systemd: Bool, service: String) -> (start: String, other: String) {
        systemd
            ? ("systemctl start \(service)", "service \(service) start")
            : ("service \(service) start", "systemctl start \(service)")
    }

    @Test(
        "no system bus: D-Bus installed is started the machine's way; not installed, installed",
        arguments: [
            (true, true), (false, true), (true, false),
        ])
    func noBus(systemd: Bool, installed: Bool) async throws {
        let directory = try TestDirectory()
        let root = try Self.root(in: directory, systemd: systemd, programs: installed ? ["usr/bin/dbus-daemon"] : [])
        let result = try await CastScanProcess.run(
            ["doctor"],
            environment: [
                "CAST_DISCOVERY_SYSTEM_ROOT": root, "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(directory.path("no-bus"))",
            ])
        #expect(result.exitCode != nil, "\(result)")
        let lines = result.stdoutLines
        let index = try #require(
            lines.firstIndex { $0.hasPrefix("note dbus: the D-Bus system bus is not running") }, "\(result)")
        let fix = lines[index + 1]
        let (start, other) = Self.commands(systemd: systemd, service: "dbus")
        #expect(
            fix
                == "     fix: \(installed ? "start it with `\(start)`" : "install it with `apt-get install dbus`") (or point DBUS_SYSTEM_BUS_ADDRESS at a running bus)",
            "\(result)")
        #expect(!result.stdout.contains(other), "one way to start a daemon: \(result)")
    }

    @Test(
        "a bus without avahi-daemon: installed but stopped says start it, the same way on every line; not installed says install it",
        arguments: [(true, true), (false, true), (true, false), (false, false)])
    func noDaemon(systemd: Bool, installed: Bool) async throws {
        let directory = try TestDirectory()
        let bus = try await PrivateBus.start(in: directory)
        defer { bus.stop() }
        let root = try Self.root(in: directory, systemd: systemd, programs: installed ? ["usr/sbin/avahi-daemon"] : [])
        let result = try await CastScanProcess.run(
            ["doctor"],
            environment: [
                "CAST_DISCOVERY_SYSTEM_ROOT": root, "DBUS_SYSTEM_BUS_ADDRESS": bus.address,
            ])
        #expect(result.exitCode != nil, "\(result)")
        let lines = result.stdoutLines
        let (start, other) = Self.commands(systemd: systemd, service: "avahi-daemon")
        let avahi = try #require(lines.firstIndex { $0.hasPrefix("note avahi-daemon: ") }, "\(result)")
        let dnssd = try #require(lines.firstIndex { $0.hasPrefix("note dnssd: ") }, "\(result)")
        if installed {
            #expect(lines[avahi] == "note avahi-daemon: avahi-daemon is not running (Daemon not running)", "\(result)")
            #expect(lines[avahi + 1] == "     fix: start it with `\(start)`", "\(result)")
            #expect(
                lines[dnssd + 1] == "     fix: start it with `\(start)`, or use --backend mdns, which needs no daemon",
                "\(result)")
        } else {
            #expect(lines[avahi] == "note avahi-daemon: avahi-daemon is not installed", "\(result)")
            #expect(lines[avahi + 1] == "     fix: install it with `apt-get install avahi-daemon`", "\(result)")
            #expect(
                lines[dnssd + 1]
                    == "     fix: install it with `apt-get install avahi-daemon`, or use --backend mdns, which needs no daemon",
                "\(result)")
            #expect(!result.stdout.contains(start), "nothing to start before it is installed: \(result)")
        }
        #expect(!result.stdout.contains(other), "one way to start a daemon: \(result)")
        #expect(!result.stdout.contains("avahi-daemon -D"), "one way to start a daemon: \(result)")
    }
}
