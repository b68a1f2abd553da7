import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A D-Bus system bus of the test's own (a private socket; any user may connect and own any
/// name), on which nothing else runs: the machine's bus and daemons are not touched.
struct PrivateBus {
    /// Why the bus could not start.
    struct CannotStart: Error, CustomStringConvertible {
        var description: String
    }

    let process: RunningProcess
    /// Its address, for `DBUS_SYSTEM_BUS_ADDRESS`.
    let address: String

    static let program = "/usr/bin/dbus-daemon"

    /// Starts dbus-daemon with its socket in `directory` and waits for the socket.
    static func start(in directory: TestDirectory) async throws -> PrivateBus {
        guard FileManager.default.isExecutableFile(atPath: program) else {
            throw PrivateBus.CannotStart(
                description: "needs \(program) (Debian's dbus package) for a private bus without avahi-daemon")
        }
        let socket = directory.path("bus-socket")
        let config = try directory.write(
            "bus.conf",
            """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>system</type>
              <listen>unix:path=\(socket)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/>
                <allow own="*"/>
                <allow send_type="method_call"/>
                <allow send_destination="*"/>
                <allow receive_sender="*"/>
              </policy>
            </busconfig>
            """)
        let process = try RunningProcess(
            executable: URL(fileURLWithPath: program),
            arguments: ["--config-file=\(config)", "--nofork", "--nopidfile"])
        let bus = PrivateBus(process: process, address: "unix:path=\(socket)")
        let deadline = ContinuousClock.now + .seconds(20)
        while !FileManager.default.fileExists(atPath: socket) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                bus.stop()
                let log = (try? String(contentsOf: process.stderrURL, encoding: .utf8)) ?? ""
                throw PrivateBus.CannotStart(description: "the private dbus-daemon did not start: \(log)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return bus
    }

    /// Ends the bus (the test's own process, by its PID).
    func stop() {
        if process.isRunning { _ = process.send(SIGTERM) }
    }
}
