import CastDiscovery
import Foundation
import Testing

/// Which command a fix suggests for a daemon, decided on a stand-in for `/`: with or without
/// systemd as PID 1, with or without the daemon's program.
@Suite("SystemServices: how to start or install a daemon")
struct SystemServicesTests {
    /// A stand-in root: `run/systemd/system` when `systemd`, and an executable file for each
    /// of `programs` (`usr/sbin/avahi-daemon`).
    static func root(systemd: Bool, programs: [String] = []) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cast-services-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        if systemd {
            try FileManager.default.createDirectory(
                atPath: root + "/run/systemd/system", withIntermediateDirectories: true)
        }
        for program in programs {
            let directory = root + "/" + (program as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            #expect(
                FileManager.default.createFile(
                    atPath: root + "/" + program, contents: Data("#!/bin/sh\nexit 1\n".utf8),
                    attributes: [.posixPermissions: 0o755]))
        }
        return root
    }

    @Test("systemd as PID 1: systemctl start; otherwise: service ... start", arguments: [true, false])
    func start(systemd: Bool) throws {
        let root = try Self.root(systemd: systemd, programs: ["usr/sbin/avahi-daemon", "usr/bin/dbus-daemon"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let services = SystemServices(root: root)
        #expect(services.isSystemd == systemd)
        #expect(services.isInstalled(.avahi) && services.isInstalled(.dbus))
        #expect(
            services.startCommand(.avahi) == (systemd ? "systemctl start avahi-daemon" : "service avahi-daemon start"))
        #expect(services.startCommand(.dbus) == (systemd ? "systemctl start dbus" : "service dbus start"))
        #expect(services.fix(.avahi) == "start it with `\(services.startCommand(.avahi))`")
    }

    @Test("a program that is not there is not installed: the fix installs its package", arguments: [true, false])
    func notInstalled(systemd: Bool) throws {
        let root = try Self.root(systemd: systemd)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let services = SystemServices(root: root)
        #expect(!services.isInstalled(.avahi) && !services.isInstalled(.dbus))
        #expect(services.fix(.avahi) == "install it with `apt-get install avahi-daemon`")
        #expect(services.fix(.dbus) == "install it with `apt-get install dbus`")
    }

    @Test("only an executable regular file counts; /run/systemd/system must be a directory")
    func strict() throws {
        let root = try Self.root(systemd: false)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(
            atPath: root + "/usr/sbin/avahi-daemon", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/usr/bin", withIntermediateDirectories: true)
        #expect(
            FileManager.default.createFile(
                atPath: root + "/usr/bin/dbus-daemon", contents: Data(), attributes: [.posixPermissions: 0o644]))
        try FileManager.default.createDirectory(atPath: root + "/run/systemd", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: root + "/run/systemd/system", contents: Data()))
        let services = SystemServices(root: root)
        #expect(!services.isInstalled(.avahi), "a directory is no program")
        #expect(!services.isInstalled(.dbus), "a file with no execute bit is no program (for root too)")
        #expect(!services.isSystemd, "a file is not the directory systemd makes")
    }

    @Test("the machine's own answer is the plain root's")
    func machine() {
        #expect(SystemServices().isSystemd == FileManager.default.fileExists(atPath: "/run/systemd/system"))
    }
}
