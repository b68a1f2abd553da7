@testable import CastScanCLI
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `watch --report` and `report send` against a real HTTP collector on loopback
/// (Tests/Scripts/report-collector.py), counted by event `id`: senders sharing a spool, a spool
/// locked by another process, collectors that answer 413, the send due at a replay's end, and
/// collector URLs and credentials refused before anything is stored.
@Suite("cast-scan report senders, end to end")
struct EndToEndReportSenderTests {
    /// A replay of `count` devices found one every `spacing` seconds, written to `name`.
    static func replay(
        _ count: Int, prefix: String, spacing: Double, in directory: TestDirectory, name: String,
        extra: [ReplayWriter.Device] = []
    ) throws -> String {
        let code = String(prefix.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF }, radix: 16)
        var devices = (0..<count).map { index -> ReplayWriter.Device in
            let hex = String(index, radix: 16)
            return ReplayWriter.Device(
                instance: "\(prefix)-\(index)", friendlyName: "\(prefix) \(index)",
                id: String(repeating: "0", count: 4 - code.count) + code + String(repeating: "0", count: 28 - hex.count)
                    + hex,
                address: "10.\(index / 62500 % 250).\(index / 250 % 250).\(index % 250 + 1)")
        }
        devices.insert(contentsOf: extra, at: devices.count / 2)
        var writer = ReplayWriter(devices: devices)
        for index in writer.events.indices where writer.events[index]["kind"] as? String == "found" {
            writer.events[index]["at"] = 0.01 + Double(index) * spacing
        }
        if let last = writer.events.indices.last {
            writer.events[last]["at"] = 0.02 + Double(writer.events.count) * spacing
        }
        return try writer.write(to: directory, name: name)
    }

    /// The device events a watch printed (each one stored as one event).
    static func deviceLines(_ result: ProcessResult) -> Int {
        result.stdoutLines.filter { line in
            ["inserted", "updated", "moved", "removed"].contains { line.contains("\"event\":\"\($0)\"") }
        }.count
    }

    static func pending(_ spool: String) async throws -> Int {
        let status = try await CastScanProcess.run(["report", "status", "--spool", spool, "--json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: status.stdoutData) as? [String: Any], "\(status)")
        return try #require(object["pending"] as? Int, "\(status)")
    }

    @Test("two watches on one spool: every event delivered once, none left, no lock errors")
    func twoWatches() async throws {
        let directory = try TestDirectory()
        let collector = try await ReportCollector(in: directory)
        let spool = directory.path("spool")
        let replays = try ["a", "b"].map {
            try Self.replay(500, prefix: $0, spacing: 0.002, in: directory, name: "\($0).json")
        }
        let watches = try replays.map {
            try CastScanProcess.start(["watch", "--jsonl", "--replay", $0, "--report", collector.url, "--spool", spool])
        }
        var printed = 0
        for watch in watches {
            let result = await watch.wait(timeout: .seconds(60))
            #expect(result.exitCode == 0, "\(result)")
            #expect(!result.stderr.contains("locked") && !result.stderr.contains("cannot store"), "\(result)")
            printed += Self.deviceLines(result)
        }
        #expect(printed == 1000)
        let deliveries = collector.deliveries()
        #expect(collector.duplicates().isEmpty, "\(collector.duplicates().count) ids delivered more than once")
        #expect(deliveries.count == printed)
        #expect(try await Self.pending(spool) == 0)
    }

    @Test("report send and status during a busy watch: never 74, no duplicates, everything delivered")
    func sendDuringWatch() async throws {
        let directory = try TestDirectory()
        let collector = try await ReportCollector(in: directory)
        let spool = directory.path("spool")
        let replay = try Self.replay(1000, prefix: "busy", spacing: 0.003, in: directory, name: "busy.json")
        let watch = try CastScanProcess.start([
            "watch", "--jsonl", "--replay", replay, "--report", collector.url, "--spool", spool,
        ])
        var runs: [ProcessResult] = []
        while watch.isRunning {
            runs.append(try await CastScanProcess.run(["report", "send", "--report", collector.url, "--spool", spool]))
            runs.append(try await CastScanProcess.run(["report", "status", "--spool", spool]))
        }
        let watched = await watch.wait(timeout: .seconds(60))
        #expect(watched.exitCode == 0, "\(watched)")
        try #require(runs.count >= 2, "no report command ran during the watch")
        for run in runs {
            let allowed: [Int32] = run.arguments[1] == "send" ? [0, 75] : [0]
            #expect(run.exitCode.map(allowed.contains) == true, "\(run)")
            #expect(!run.stderr.contains("locked"), "\(run)")
        }
        let last = try await CastScanProcess.run(["report", "send", "--report", collector.url, "--spool", spool])
        #expect(last.exitCode == 0, "\(last)")
        #expect(collector.duplicates().isEmpty, "\(collector.duplicates().count) ids delivered more than once")
        #expect(collector.deliveries().count == Self.deviceLines(watched))
    }

    @Test("a spool locked past the busy timeout: report send says so and exits 75; nothing sent twice")
    func lockedSpool() async throws {
        let directory = try TestDirectory()
        let collector = try await ReportCollector(in: directory)
        let spool = directory.path("spool")
        let replay = try Self.replay(5, prefix: "lock", spacing: 0.001, in: directory, name: "lock.json")
        let watch = try await CastScanProcess.run(
            ["watch", "--jsonl", "--replay", replay, "--report", "http://127.0.0.1:9/events", "--spool", spool])
        #expect(watch.exitCode == 0, "\(watch)")
        // Another process holds the write lock (BEGIN EXCLUSIVE) until it is killed.
        let holder = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            arguments: [
                "python3", "-c",
                "import signal, sqlite3, sys\ndb = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
                    + "db.execute('BEGIN EXCLUSIVE')\nprint('locked', flush=True)\nsignal.pause()",
                spool + "/events.sqlite",
            ])
        defer { holder.send(SIGKILL) }
        try #require(
            await holder.waitForFirstLine(timeout: .seconds(600)), "the lock holder never said it held the lock")
        let send = try await CastScanProcess.run(["report", "send", "--report", collector.url, "--spool", spool])
        #expect(send.exitCode == 75, "\(send)")
        #expect(send.stderr.contains("busy") && send.stderr.contains("try again"), "\(send)")
        #expect(!send.stderr.contains("disk is full"), "\(send)")
        // At least the busy timeout (5 s); the upper bound only tells a send that waited on, far
        // above what a loaded machine adds.
        #expect(send.elapsed >= .seconds(4) && send.elapsed < .seconds(60), "the busy timeout is 5 s: \(send.elapsed)")
        holder.send(SIGKILL)
        _ = await holder.wait(timeout: .seconds(10))
        let again = try await CastScanProcess.run(["report", "send", "--report", collector.url, "--spool", spool])
        #expect(again.exitCode == 0, "\(again)")
        #expect(collector.duplicates().isEmpty)
        #expect(collector.deliveries().count == Self.deviceLines(watch))
    }

    @Test(
        "a collector that takes at most 50 events a batch (413 past it) receives every event of a watch and its backlog"
    )
    func tooLargeBatches() async throws {
        let directory = try TestDirectory()
        let collector = try await ReportCollector(["--max-batch", "50"], in: directory)
        let spool = directory.path("spool")
        // A backlog of 300 stored while the collector could not be reached, then a watch that
        // sends it (batches of 100 at first) with its own events.
        let backlog = try await CastScanProcess.run(
            [
                "watch", "--jsonl", "--replay",
                try Self.replay(300, prefix: "old", spacing: 0.0005, in: directory, name: "old.json"),
                "--report", "http://127.0.0.1:9/events", "--spool", spool,
            ], timeout: .seconds(60))
        #expect(backlog.exitCode == 0, "\(backlog)")
        let watch = try await CastScanProcess.run(
            [
                "watch", "--jsonl", "--replay",
                try Self.replay(100, prefix: "new", spacing: 0.001, in: directory, name: "new.json"),
                "--report", collector.url, "--spool", spool,
            ], timeout: .seconds(60))
        #expect(watch.exitCode == 0, "\(watch)")
        #expect(collector.tooLargeAnswers() >= 1, "the batches never reached the collector's limit")
        #expect(collector.duplicates().isEmpty)
        #expect(collector.deliveries().count == Self.deviceLines(backlog) + Self.deviceLines(watch))
        #expect(try await Self.pending(spool) == 0)
    }

    @Test("report send --report-batch 20 to a collector that takes 50: every event, no 413")
    func batchOption() async throws {
        let directory = try TestDirectory()
        let collector = try await ReportCollector(["--max-batch", "50"], in: directory)
        let spool = directory.path("spool")
        let replay = try Self.replay(120, prefix: "opt", spacing: 0.0005, in: directory, name: "opt.json")
        let watch = try await CastScanProcess.run(
            ["watch", "--jsonl", "--replay", replay, "--report", "http://127.0.0.1:9/events", "--spool", spool])
        #expect(watch.exitCode == 0, "\(watch)")
        let printed = Self.deviceLines(watch)
        let send = try await CastScanProcess.run([
            "report", "send", "--report", collector.url, "--spool", spool, "--report-batch", "20",
        ])
        #expect(send.exitCode == 0, "\(send)")
        #expect(send.stdout.contains("sent \(printed), failed 0"), "\(send)")
        #expect(collector.tooLargeAnswers() == 0)
        #expect(collector.deliveries().count == printed)
    }

    @Test("an event the collector refuses even alone (413) is set aside and counted; the others are delivered")
    func refusedAlone() async throws {
        let directory = try TestDirectory()
        let long = String(repeating: "x", count: 240)
        let huge = ReplayWriter.Device(
            instance: "huge-" + String(repeating: "h", count: 50), friendlyName: long,
            id: "ffff0000000000000000000000000001", address: "10.200.0.1",
            extraTXT: ["rs=" + long, "ic=/" + long])
        let replay = try Self.replay(
            20, prefix: "small", spacing: 0.001, in: directory, name: "small.json", extra: [huge])
        let spool = directory.path("spool")
        let watch = try await CastScanProcess.run(
            ["watch", "--jsonl", "--replay", replay, "--report", "http://127.0.0.1:9/events", "--spool", spool])
        #expect(watch.exitCode == 0, "\(watch)")
        let lines = watch.stdoutLines.filter { $0.contains("\"event\":\"inserted\"") }
        let hugeLine = try #require(lines.first { $0.contains(long) }, "\(watch)")
        let smallLine = try #require(lines.first { !$0.contains(long) })
        // A body takes one small event (with its id and the wrapper) and not the huge one.
        let limit = smallLine.utf8.count + 200
        try #require(hugeLine.utf8.count > limit + 100, "the huge event is not large enough: \(hugeLine.utf8.count)")
        let collector = try await ReportCollector(["--max-body-bytes", "\(limit)"], in: directory)
        let send = try await CastScanProcess.run(["report", "send", "--report", collector.url, "--spool", spool])
        #expect(send.exitCode == 0, "\(send)")
        #expect(send.stdout.contains("refused as too large 1"), "\(send)")
        #expect(send.stderr.contains("refused 1 event even alone as too large (HTTP 413)"), "\(send)")
        #expect(collector.deliveries().count == Self.deviceLines(watch) - 1)
        #expect(collector.duplicates().isEmpty)
        let status = try await CastScanProcess.run(["report", "status", "--spool", spool, "--json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: status.stdoutData) as? [String: Any], "\(status)")
        #expect(object["pending"] as? Int == 0 && object["refused"] as? Int == 1, "\(status)")
    }

    @Test("watch --replay finishes the send that is due: nothing left unsent at its end")
    func replayEndFlush() async throws {
        let directory = try TestDirectory()
        let collector = try await ReportCollector(in: directory)
        let spool = directory.path("spool")
        let replay = try Self.replay(150, prefix: "end", spacing: 0.0002, in: directory, name: "end.json")
        let watch = try await CastScanProcess.run([
            "watch", "--jsonl", "--replay", replay, "--report", collector.url, "--spool", spool,
        ])
        #expect(watch.exitCode == 0, "\(watch)")
        #expect(Self.deviceLines(watch) == 150)
        #expect(collector.deliveries().count == 150)
        #expect(try await Self.pending(spool) == 0)
    }

    @Test("a signal during the final send of a replay ends the watch at once; the events stay stored")
    func signalDuringFinalSend() async throws {
        let directory = try TestDirectory()
        let mode = try directory.write("mode", "hang")
        let collector = try await ReportCollector(["--mode-file", mode], in: directory)
        let spool = directory.path("spool")
        let replay = try Self.replay(10, prefix: "sig", spacing: 0.001, in: directory, name: "sig.json")
        let watch = try CastScanProcess.start([
            "watch", "--jsonl", "--replay", replay, "--report", collector.url, "--spool", spool,
        ])
        // SIGTERM once the replay has ended (stopped printed) and the collector holds the final
        // send, from a thread of its own: the watch gives that send 15 s, which a starved test
        // task once outlasted.
        let sent = try #require(
            await watch.run(when: {
                String(decoding: watch.currentStdout(), as: UTF8.self).contains("\"event\":\"stopped\"")
                    && collector.entries().contains { $0["held"] != nil }
            }) { watch.send(SIGTERM) }, "the watch ended before its final send")
        let result = await watch.wait(timeout: .seconds(20))
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.ended - sent < .seconds(5), "ended \(result.ended - sent) after SIGTERM")
        #expect(try await Self.pending(spool) == Self.deviceLines(result))
    }

    @Test(
        "a send.lock that is not a regular file we made (a link, a FIFO) is refused (73) and left alone",
        arguments: ["link", "fifo"])
    func lockFileRefused(kind: String) async throws {
        let directory = try TestDirectory()
        let spool = directory.path("spool")
        try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
        let target = try directory.write("target", "keep")
        let lock = spool + "/send.lock"
        if kind == "link" {
            try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: target)
        } else {
            #expect(mkfifo(lock, 0o644) == 0)
        }
        let before = try EndToEndNoHarmTests.Identity(lstat: lock)
        for arguments in [
            ["report", "send", "--report", "http://127.0.0.1:9/events", "--spool", spool],
            ["watch", "--replay", FixturePaths.livingRoom, "--report", "http://127.0.0.1:9/events", "--spool", spool],
        ] {
            let result = try await CastScanProcess.run(arguments)
            #expect(result.exitCode == 73, "\(result)")
            #expect(result.stderr.contains("send.lock") && result.stderr.contains("not a regular file"), "\(result)")
        }
        #expect(try EndToEndNoHarmTests.Identity(lstat: lock) == before)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
    }

    @Test(
        "--report-batch takes a whole number from 1 to 1000",
        arguments: [
            ("0", false), ("1001", false), ("-1", false), ("x", false), ("2.5", false), ("1", true), ("1000", true),
        ])
    func batchValidation(value: String, accepted: Bool) async throws {
        let directory = try TestDirectory()
        let result = try await CastScanProcess.run(
            [
                "report", "send", "--report", "http://127.0.0.1:9/events", "--spool", directory.path("spool"),
                "--report-batch", value,
            ])
        if accepted {
            #expect(result.exitCode == 0, "\(result)")
        } else {
            #expect(result.exitCode == 64, "\(result)")
            #expect(result.stderr.contains("--report-batch must be a whole number from 1 to 1000"), "\(result)")
        }
    }

    @Test(
        "collector URLs with a bad port or host are usage errors (64) that say what is wrong",
        arguments: [
            ("http://127.0.0.1:99999/events", "port '99999'"), ("http://127.0.0.1:65536/events", "port '65536'"),
            ("http://127.0.0.1:-1/events", "port '-1'"), ("http://127.0.0.1:18099x/events", "port '18099x'"),
            ("http://127.0.0.1:0/events", "port '0'"), ("http://127.0.0.1:/events", "port ''"),
            ("http://[::1/events", "closing ']'"), ("http://[::1]x/events", "after the IPv6 address"),
            ("http://[::g]/events", "not an IPv6 address"), ("http://bad_host!/events", "the host"),
        ])
    func badURL(url: String, problem: String) async throws {
        let directory = try TestDirectory()
        for command in [["report", "send"], ["watch", "--replay", FixturePaths.livingRoom]] {
            let result = try await CastScanProcess.run(command + ["--report", url, "--spool", directory.path("spool")])
            #expect(result.exitCode == 64, "\(result)")
            #expect(result.stderr.contains(problem), "\(result)")
        }
        #expect(
            !FileManager.default.fileExists(atPath: directory.path("spool")), "a usage error must not create the spool")
    }

    @Test(
        "credentials that are empty, hold a line break or are not UTF-8: the message names the variable, never the URL or the secret",
        arguments: [
            ("", "it is empty"), (#"alice\nsecret"#, "line break"), (#"alice:secret\r"#, "line break"),
            (#"alice:s\xffcret"#, "not UTF-8"),
        ])
    func badCredentials(credentials: String, problem: String) async throws {
        let directory = try TestDirectory()
        let result = try await CastScanProcess.runScript(
            #"CAST_SCAN_REPORT_CREDENTIALS=$'"# + credentials
                + #"' "$CAST_SCAN" report send --report http://127.0.0.1:9/events --spool "$1""#,
            [directory.path("spool")])
        #expect(result.exitCode == 64, "\(result)")
        #expect(result.stderr.contains("$CAST_SCAN_REPORT_CREDENTIALS cannot be used"), "\(result)")
        #expect(result.stderr.contains(problem), "\(result)")
        #expect(
            !result.stderr.contains("URL") && !result.stderr.contains("secret") && !result.stderr.contains("cret"),
            "\(result)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("spool")))
    }
}
