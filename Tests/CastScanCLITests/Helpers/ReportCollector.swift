import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The HTTP collector of Tests/Scripts/report-collector.py on a free port of loopback, for one
/// test: what it received, counted by event `id`. Stopped (SIGKILL to its own process) when the
/// last reference goes away.
final class ReportCollector: Sendable {
    /// Why the collector did not start.
    struct NotStarted: Error, CustomStringConvertible {
        var output: String
        var description: String { "the report collector did not start: \(output)" }
    }

    let process: RunningProcess
    let port: Int
    let log: String

    /// The URL batches are POSTed to.
    var url: String { "http://127.0.0.1:\(port)/events" }

    /// Starts the collector; `arguments` are its options (`--max-batch 50`...).
    init(_ arguments: [String] = [], in directory: TestDirectory) async throws {
        // Debian's python3 (Scripts/setup), else the first on PATH.
        let python =
            FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
            ? ["/usr/bin/python3"] : ["/usr/bin/env", "python3"]
        let script = FixturePaths.packageRoot.appendingPathComponent("Tests/Scripts/report-collector.py").path
        log = directory.path("collector-\(UUID().uuidString).jsonl")
        process = try RunningProcess(
            executable: URL(fileURLWithPath: python[0]),
            arguments: python.dropFirst() + [script, "--port", "0", "--log", log] + arguments)
        // Generous, and the output is read once more after the deadline: a test task starved
        // by a loaded pool may wake only after it (a python start takes 50 ms unloaded).
        let deadline = ContinuousClock.now + .seconds(60)
        var found: Int?
        while true {
            let text = String(decoding: process.currentStdout(), as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening ") }) {
                found = Int(line.dropFirst("listening ".count))
            }
            if found != nil || ContinuousClock.now >= deadline || !process.isRunning { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        guard let found else {
            process.send(SIGKILL)
            let result = await process.wait(timeout: .seconds(5))
            throw NotStarted(output: result.stdout + result.stderr)
        }
        port = found
    }

    deinit {
        // SIGKILL: a child started by the test process inherits its blocked signals, SIGTERM
        // among them, so python3 would never see a SIGTERM and outlive the test run.
        process.send(SIGKILL)
    }

    /// Every line the collector logged, decoded.
    func entries() -> [[String: Any]] {
        guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// How many times each event `id` was delivered (answered 200).
    func deliveries() -> [String: Int] {
        var counts: [String: Int] = [:]
        for entry in entries() {
            if let id = entry["id"] as? String { counts[id, default: 0] += 1 }
        }
        return counts
    }

    /// How many batches were answered 413.
    func tooLargeAnswers() -> Int {
        entries().filter { $0["too_large"] != nil }.count
    }

    /// The ids delivered more than once, with their counts.
    func duplicates() -> [String: Int] {
        deliveries().filter { $0.value > 1 }
    }
}
