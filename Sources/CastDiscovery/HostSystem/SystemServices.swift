#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How this machine runs its system daemons: whether systemd is the init system, and whether a
/// daemon's program is installed.
///
/// The one place that decides what a fix tells the user to run for a daemon that does not
/// answer (avahi-daemon, the D-Bus system bus): `systemctl start NAME` when systemd is PID 1,
/// else `service NAME start`; `apt-get install PACKAGE` when the program is not installed. The
/// backends' errors and so `cast-scan doctor` all say it the same way.
package struct SystemServices: Sendable, Hashable {
    /// A system daemon: its service name, its program and the Debian package that installs it.
    package struct Daemon: Sendable, Hashable {
        /// The name `systemctl` and `service` know it by.
        package var service: String
        /// The program's file name.
        package var program: String
        /// The Debian package that installs it.
        package var debianPackage: String

        /// avahi-daemon, the mDNS daemon the Avahi and dns_sd backends talk to.
        package static let avahi = Daemon(
            service: "avahi-daemon", program: "avahi-daemon", debianPackage: "avahi-daemon")
        /// The D-Bus system bus, over which they reach it.
        package static let dbus = Daemon(service: "dbus", program: "dbus-daemon", debianPackage: "dbus")
    }

    /// The directories a daemon's program is looked for in.
    package static let programDirectories = [
        "/usr/sbin", "/usr/bin", "/sbin", "/bin", "/usr/local/sbin", "/usr/local/bin",
    ]

    /// The directory the system's paths are looked up under: `/`, or a test's stand-in.
    package var root: String

    /// The services of the system under `root`.
    package init(root: String = "/") {
        self.root = root
    }

    /// The machine's own services. In a debug build `CAST_DISCOVERY_SYSTEM_ROOT` in the
    /// environment names a directory that stands in for `/` (with or without
    /// `run/systemd/system` and the daemons' programs), so tests can see both answers without
    /// touching the machine's daemons; a release build ignores it.
    package static var current: SystemServices {
        #if DEBUG
        if let root = getenv("CAST_DISCOVERY_SYSTEM_ROOT").map({ String(cString: $0) }), !root.isEmpty {
            return SystemServices(root: root)
        }
        #endif
        return SystemServices()
    }

    /// Whether systemd is the init system (PID 1): `/run/systemd/system` is a directory, the
    /// test of `sd_booted(3)`.
    package var isSystemd: Bool {
        var status = stat()
        return stat(path("/run/systemd/system"), &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// Whether the daemon's program is installed: an executable file of its name in one of
    /// ``programDirectories``.
    package func isInstalled(_ daemon: Daemon) -> Bool {
        Self.programDirectories.contains { directory in
            var status = stat()
            let file = path("\(directory)/\(daemon.program)")
            return stat(file, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && access(file, X_OK) == 0
        }
    }

    /// The command that starts the daemon: `systemctl start NAME` under systemd, else
    /// `service NAME start`.
    package func startCommand(_ daemon: Daemon) -> String {
        isSystemd ? "systemctl start \(daemon.service)" : "service \(daemon.service) start"
    }

    /// The command that installs the daemon: `apt-get install PACKAGE`.
    package func installCommand(_ daemon: Daemon) -> String {
        "apt-get install \(daemon.debianPackage)"
    }

    /// What to do about the daemon when it does not answer: start it when it is installed,
    /// else install it (``startCommand(_:)``, ``installCommand(_:)``).
    package func fix(_ daemon: Daemon) -> String {
        isInstalled(daemon) ? "start it with `\(startCommand(daemon))`" : "install it with `\(installCommand(daemon))`"
    }

    /// `absolute` under ``root``.
    private func path(_ absolute: String) -> String {
        root == "/" ? absolute : (root.hasSuffix("/") ? String(root.dropLast()) : root) + absolute
    }
}
