import CastTestSupport
import Foundation
import Testing

/// A backend that fails for good (its poll loop fails) ends every command with 70 and the
/// reason on stderr, never as an ordinary end. The failure is injected through the debug
/// build's `CAST_DISCOVERY_FAIL_POLL_AFTER_MS`; the known-hosts backend asks 127.0.0.1 only, so
/// nothing leaves the machine. The mDNS querier and the dns_sd session are checked in the lab
/// (`Tests/Scripts/cast-scan-lab-test.sh`), where their traffic stays in the lab's namespaces.
@Suite("cast-scan, a backend that fails")
struct EndToEndBackendFailureTests {
    static let hosts = ["--backend", "hosts", "--host", "127.0.0.1"]

    @Test(
        "a one-shot scan whose backend's loop fails exits 70 and says why",
        arguments: [
            [String](), ["--json"],
        ])
    func oneShot(extra: [String]) async throws {
        let result = try await CastScanProcess.run(
            Self.hosts + extra, environment: ["CAST_DISCOVERY_FAIL_POLL_AFTER_MS": "0"])
        #expect(result.exitCode == 70, "\(result)")
        #expect(result.stderr.contains("cast-scan: the known-hosts querier stopped: poll failed: "), "\(result)")
        #expect(result.stdout.isEmpty, "no listing is printed as if the scan had ended: \(result)")
    }

    @Test(
        "a watch whose backend's loop fails exits 70 and says why, in both output forms",
        arguments: [
            [String](), ["--jsonl"],
        ])
    func watch(extra: [String]) async throws {
        let result = try await CastScanProcess.run(
            ["watch"] + Self.hosts + extra, environment: ["CAST_DISCOVERY_FAIL_POLL_AFTER_MS": "1500"])
        #expect(result.exitCode == 70, "\(result)")
        #expect(result.stderr.contains("cast-scan: the known-hosts querier stopped: poll failed: "), "\(result)")
        #expect(!result.stdout.contains("discovery stopped"), "\(result)")
        #expect(result.stdout.contains("backend failed"), "\(result)")
    }

    @Test("without the failure the same watch runs until it is stopped (the check can tell)")
    func control() async throws {
        let child = try CastScanProcess.start(["watch"] + Self.hosts)
        #expect(
            await child.waitForFirstLine(timeout: .seconds(60)),
            "a busy test run can keep the polling task from running for seconds")
        // A deliberate "nothing within 1.5 s" check: the watch above fails 1.5 s into its poll
        // loop, which runs before the first line, so this one has run at least as long (a busy
        // machine only lengthens the window) without failing, or the check stops at the failure.
        // The window is what is checked, watched from a thread of its own.
        _ = await Eventually.wait(timeout: .milliseconds(1500), giveUpIf: { !child.isRunning }) {
            String(decoding: child.currentStdout(), as: UTF8.self).contains("backend failed")
        }
        _ = child.send(SIGTERM)
        let result = await child.wait(timeout: .seconds(10))
        #expect(result.exitCode == 0, "\(result)")
        #expect(!result.stdout.contains("backend failed"), "\(result)")
    }
}
