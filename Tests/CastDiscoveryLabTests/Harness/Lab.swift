import CastDiscovery
import Foundation

/// The running lab, seen from a test process started inside its sender namespace by
/// `Tests/Scripts/backend-lab-test.sh` (which sets `CASTLAB_SWIFT_TESTS=1`).
enum Lab {
    /// Whether this process runs inside the lab. Lab suites are enabled only then; the lab
    /// runner checks that they ran, so CI can never pass with them skipped.
    static let isRunning = ProcessInfo.processInfo.environment["CASTLAB_SWIFT_TESTS"] == "1"

    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    struct Device: Decodable {
        var instance: String
        var host: String
        var port: UInt16
        var ipv4: String?
        var ipv6: String?
        var txt: [String]
        var subtypes: [String]
        /// The mDNS stack serving it: "zeroconf" (python-zeroconf) or "avahi" (avahi-daemon).
        var stack: String
    }

    struct Status: Decodable { var devices: [Device] }

    /// The lab's devices served by `stack` ("zeroconf" or "avahi").
    static func devices(stack: String) throws -> [Device] {
        try devices().filter { $0.stack == stack }
    }

    /// The lab's device list (`castlab status --json`).
    static func devices() throws -> [Device] {
        try JSONDecoder().decode(Status.self, from: Data(try castlab("status", "--json").utf8)).devices
    }

    /// Runs `Scripts/castlab ARGS` and returns its stdout; throws on a non-zero exit.
    @discardableResult
    static func castlab(_ arguments: String...) throws -> String {
        try run(root.appendingPathComponent("Scripts/castlab").path, arguments)
    }

    /// Runs a program (by path or on PATH) and returns its stdout; throws on a non-zero exit.
    static func run(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandError(
                command: ([program] + arguments).joined(separator: " "),
                status: process.terminationStatus,
                stderr: String(decoding: errors, as: UTF8.self))
        }
        return String(decoding: data, as: UTF8.self)
    }

    struct CommandError: Error, CustomStringConvertible {
        var command: String
        var status: Int32
        var stderr: String
        var description: String { "`\(command)` exited \(status): \(stderr)" }
    }
}
