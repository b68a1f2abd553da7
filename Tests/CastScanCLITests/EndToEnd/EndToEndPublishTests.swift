@testable import CastScanCLI
import Foundation
import Testing

/// `cast-scan publish` with bad input and without a daemon: each a clear message on stderr and
/// a non-zero exit, before anything is published. What is published is tested in the lab
/// (Tests/Scripts/publish-lab-test.sh).
@Suite("cast-scan publish, bad input and no daemon")
struct EndToEndPublishTests {
    /// An environment whose system bus does not exist: no daemon can be reached.
    static func noBus() -> [String: String] {
        ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/cast-scan-test-bus"]
    }

    static func device(_ index: Int) -> String {
        #"{"name": "D\#(index)", "model": "Chromecast", "capabilities": 5}"#
    }

    @Test(
        "bad device files exit 65 naming the file and what is wrong, nothing on stdout",
        arguments: [
            (#"{"devices": [}"#, "not JSON"),
            (
                #"{"devices": [{"name": "A", "model": "M", "capabilities": 5, "id": "0a1b2c3d4e5f"}, {"name": "B", "model": "M", "capabilities": 5, "id": "0a1b2c3d4e5f"}]}"#,
                "devices[1]: the id \"0a1b2c3d4e5f\" is also devices[0]'s"
            ),
            (
                #"{"devices": [{"instance": "X", "port": 8009, "txt": ["fn=\#(String(repeating: "é", count: 130))"]}]}"#,
                "a TXT string holds 1 to 255"
            ),
            (#"{"devices": [{"name": "A\u001b[2J", "model": "M", "capabilities": 5}]}"#, ""),
            (
                #"{"devices": [\#((0..<10_000).map(device).joined(separator: ","))]}"#,
                "10000 devices; at most 1000 can be published at once"
            ),
        ] as [(String, String)])
    func badFiles(text: String, expected: String) async throws {
        let directory = try TestDirectory()
        let path = try directory.write("devices.json", text)
        let result = try await CastScanProcess.run(["publish", path], environment: Self.noBus())
        if expected.isEmpty {
            // A control character in a friendly name is data, published escaped; here no
            // daemon answers, which is the failure.
            #expect(result.exitCode == ExitCode.unavailable.rawValue, "\(result)")
        } else {
            #expect(result.exitCode == ExitCode.dataError.rawValue, "\(result)")
            #expect(result.stderr.contains("\(path): ") && result.stderr.contains(expected), "\(result)")
        }
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(!result.stderr.unicodeScalars.contains { $0.value == 0x1B }, "\(result)")
    }

    @Test("101 devices through dnssd exceed its limit (65)")
    func dnssdLimit() async throws {
        let directory = try TestDirectory()
        let path = try directory.write(
            "devices.json", #"{"devices": [\#((0..<101).map(Self.device).joined(separator: ","))]}"#)
        let result = try await CastScanProcess.run(["publish", "--backend", "dnssd", path], environment: Self.noBus())
        #expect(result.exitCode == ExitCode.dataError.rawValue, "\(result)")
        #expect(result.stderr.contains("101 registrations; --backend dnssd publishes at most 100 at once"), "\(result)")
    }

    @Test(
        "a script that names no device, breaks the order of withdraw and return, or has a bad line exits 65 before any daemon is asked"
    )
    func badScripts() async throws {
        let directory = try TestDirectory()
        let path = try directory.write(
            "devices.json",
            #"{"devices": [{"name": "A", "model": "Chromecast", "capabilities": 5, "id": "0a1b2c3d4e5f"}]}"#)
        for (script, expected) in [
            ("1 rename nobody X\n", "change 1: no receiver has the id or instance name \"nobody\""),
            ("1 withdraw 0a1b2c3d4e5f\n2 withdraw 0a1b2c3d4e5f\n", "change 2: \"0a1b2c3d4e5f\" is withdrawn already"),
            ("return 0a1b2c3d4e5f\n", "change 1: \"0a1b2c3d4e5f\" is published"),
            ("1 dance Chromecast-x\r\n", "line 1: \"dance\" is not an action"),
        ] {
            let scriptPath = try directory.write("script.txt", script)
            let result = try await CastScanProcess.run(
                ["publish", "--script", scriptPath, path], environment: Self.noBus())
            #expect(result.exitCode == ExitCode.dataError.rawValue, "\(script): \(result)")
            #expect(result.stderr.contains("\(scriptPath): \(expected)"), "\(result)")
        }
    }

    @Test("no system bus: exit 69 with the fix, for both backends")
    func noDaemon() async throws {
        for backend in ["avahi", "dnssd"] {
            let result = try await CastScanProcess.run(
                ["publish", "--backend", backend, FixturePaths.fixture("publish/receivers.json")],
                environment: Self.noBus())
            #expect(result.exitCode == ExitCode.unavailable.rawValue, "\(backend): \(result)")
            #expect(result.stderr.hasPrefix("cast-scan: "), "\(result)")
            #expect(result.stderr.contains("avahi-daemon") || result.stderr.contains("D-Bus"), "\(result)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test("flags: an unknown backend, a missing file, an interface that does not exist are usage errors (64)")
    func usage() async throws {
        let file = FixturePaths.fixture("publish/receivers.json")
        for arguments in [
            ["publish", "--backend", "mdns", file], ["publish"], ["publish", "--interface", "nosuch0", file],
        ] {
            let result = try await CastScanProcess.run(arguments, environment: Self.noBus())
            #expect(result.exitCode == ExitCode.usage.rawValue, "\(arguments): \(result)")
        }
    }
}
