@testable import CastScanCLI
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A one-shot listing on a machine with no network to ask: each child runs in a network
/// namespace of its own (`unshare --net`: only loopback, down), so nothing leaves the machine
/// and the machine's own interfaces do not matter. It fails with 69 and the reason `doctor`
/// gives, never "0 devices" as if the network were empty; a replay and the known hosts need
/// no multicast and still list.
///
/// A namespace needs root and `unshare`: without them each test fails and says so (never a
/// silent skip).
@Suite("cast-scan list, no network interface")
struct EndToEndNoNetworkTests {
    static let unshare = "/usr/bin/unshare"
    static let reason = "no network interface with multicast is up: lo is loopback"

    /// Why the tests cannot run here.
    struct CannotIsolate: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `cast-scan arguments` in a new network namespace, with a private state file.
    static func runIsolated(_ arguments: [String], state: Bool = true) async throws -> ProcessResult {
        guard geteuid() == 0 else {
            throw CannotIsolate(
                description:
                    "needs root: the test runs cast-scan in a network namespace of its own (unshare --net); run the suite as root"
            )
        }
        guard FileManager.default.isExecutableFile(atPath: unshare) else {
            throw CannotIsolate(description: "needs \(unshare) (util-linux) for a network namespace of the test's own")
        }
        let directory = try TestDirectory()
        let extra = state ? ["--state", directory.path("state.json")] : []
        let child = try RunningProcess(
            executable: URL(fileURLWithPath: unshare),
            arguments: ["--net", try CastScanProcess.executable().path] + arguments + extra)
        var result = await child.wait(timeout: .seconds(30))
        result.arguments = arguments
        return result
    }

    @Test(
        "a listing exits 69 and says why on stderr, nothing on stdout",
        arguments: [
            [String](), ["--json"], ["--backend", "mdns"], ["--fail-if-empty"],
        ])
    func listing(extra: [String]) async throws {
        let result = try await Self.runIsolated(["--timeout", "2"] + extra)
        #expect(result.exitCode == ExitCode.unavailable.rawValue, "\(result)")
        #expect(result.stderrLines == ["cast-scan: \(Self.reason) (see cast-scan doctor)"], "\(result)")
        #expect(result.stdout.isEmpty, "no listing as if the network were empty: \(result)")
        #expect(result.elapsed < .seconds(2), "it fails at once, without scanning: \(result)")
    }

    @Test("doctor fails the same check with the same words")
    func doctor() async throws {
        let result = try await Self.runIsolated(["doctor"], state: false)
        #expect(result.exitCode == ExitCode.unavailable.rawValue, "\(result)")
        #expect(result.stdoutLines.contains("FAIL multicast interfaces: \(Self.reason)"), "\(result)")
    }

    @Test("a replay needs no network: it lists as anywhere else")
    func replay() async throws {
        let result = try await Self.runIsolated(["--replay", FixturePaths.livingRoom])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.stdoutLines.last?.hasPrefix("4 devices") == true, "\(result)")
    }

    @Test("--backend hosts needs no multicast: exit 0, no complaint about interfaces")
    func knownHostsOnly() async throws {
        let result = try await Self.runIsolated(["--backend", "hosts", "--host", "127.0.0.1", "--timeout", "0.5"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(!result.stderr.contains("multicast"), "\(result)")
    }

    @Test("--host beside multicast: only the hosts are asked, and stderr says so; exit 0")
    func knownHostsBesideMulticast() async throws {
        let result = try await Self.runIsolated(["--host", "127.0.0.1", "--timeout", "0.5"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(
            result.stderrLines.contains(
                "cast-scan: \(Self.reason); only the --host devices are asked (see cast-scan doctor)"), "\(result)")
        #expect(result.stdoutLines.last?.hasPrefix("0 devices") == true, "\(result)")
    }
}
