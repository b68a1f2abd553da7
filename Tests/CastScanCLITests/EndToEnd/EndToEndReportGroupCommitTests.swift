@testable import CastScanCLI
import Foundation
import Testing

/// `watch --report` storing a burst in groups: what is printed is what is stored, in order.
@Suite("cast-scan watch --report, group commit, end to end")
struct EndToEndReportGroupCommitTests {
    static let unreachable = "http://127.0.0.1:9/events"

    /// The JSON objects of the printed device lines, in order.
    static func printedEvents(_ result: ProcessResult) -> [[String: Any]] {
        result.stdoutLines.compactMap { line -> [String: Any]? in
            guard ["inserted", "updated", "moved", "removed"].contains(where: { line.contains("\"event\":\"\($0)\"") })
            else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
    }

    @Test("a burst of 600 devices: every device line printed is stored, as printed and in the same order")
    func burstStoredAsPrinted() async throws {
        let directory = try TestDirectory()
        let spool = directory.path("spool")
        let replay = try ReplayWriter.paced(count: 600, over: 0).write(to: directory, name: "burst.json")
        let watch = try await CastScanProcess.run(
            ["watch", "--jsonl", "--replay", replay, "--report", Self.unreachable, "--spool", spool],
            timeout: .seconds(120))
        #expect(watch.exitCode == 0, "\(watch)")
        let printed = Self.printedEvents(watch)
        #expect(printed.count == 600, "\(watch.stderr)")
        // Delivered in the order stored; the collector logs each event it takes.
        let collector = try await ReportCollector(in: directory)
        let send = try await CastScanProcess.run(
            ["report", "send", "--report", collector.url, "--spool", spool], timeout: .seconds(120))
        #expect(send.exitCode == 0, "\(send)")
        let stored = collector.entries().filter { $0["id"] != nil }
        #expect(stored.count == printed.count)
        for (index, (event, line)) in zip(stored, printed).enumerated() {
            var withoutID = event
            withoutID.removeValue(forKey: "id")
            #expect(
                NSDictionary(dictionary: withoutID).isEqual(to: line),
                "event \(index): stored \(event), printed \(line)")
        }
    }

    @Test("serve --report: every device change it logs is stored; SIGTERM ends it with 0")
    func serveStoresWhatItLogs() async throws {
        let directory = try TestDirectory()
        let spool = directory.path("spool")
        let replay = try ReplayWriter.paced(count: 300, over: 0).write(to: directory, name: "serve.json")
        let server = try await EndToEndServeTests.Server.start([
            "--replay", replay, "--report", Self.unreachable, "--spool", spool,
        ])
        defer { _ = server.process.send(SIGKILL) }
        _ = try await server.poll("/devices") { $0.components(separatedBy: "\"friendlyName\"").count - 1 == 300 }
        // A change is logged once it is stored: 300 logged, 300 stored at least.
        let deadline = ContinuousClock.now + .seconds(60)
        func logged() -> Int {
            let stderr = (try? String(contentsOf: server.process.stderrURL, encoding: .utf8)) ?? ""
            return stderr.components(separatedBy: "cast-scan: serve: + ").count - 1
        }
        while logged() < 300, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(logged() == 300)
        _ = server.process.send(SIGTERM)
        let result = await server.process.wait(timeout: .seconds(30))
        #expect(result.exitCode == 0, "\(result)")
        let status = try await CastScanProcess.run(["report", "status", "--spool", spool, "--json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: status.stdoutData) as? [String: Any], "\(status)")
        #expect(object["pending"] as? Int == 300, "\(status)")
    }
}
