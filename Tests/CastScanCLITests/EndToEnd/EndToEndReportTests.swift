@testable import CastScanCLI
import Foundation
import Testing

/// `watch --report` and `report` without a collector to reach (nothing listens on port 9 of
/// loopback): what the spool keeps, what it refuses, and damaged spools. Delivery to a real
/// collector is Tests/Scripts/report-lab-test.sh.
@Suite("cast-scan report, end to end")
struct EndToEndReportTests {
    static let unreachable = "http://127.0.0.1:9/events"

    @Test("a watch stores every device event it prints; report status counts them; report send keeps them (75)")
    func stored() async throws {
        let directory = try TestDirectory()
        let spool = directory.path("spool")
        let watch = try await CastScanProcess.run(
            ["watch", "--jsonl", "--replay", FixturePaths.livingRoom, "--report", Self.unreachable, "--spool", spool])
        #expect(watch.exitCode == 0, "\(watch)")
        let printed = watch.stdoutLines.filter {
            $0.contains(#""event":"inserted""#) || $0.contains(#""event":"removed""#)
                || $0.contains(#""event":"updated""#) || $0.contains(#""event":"moved""#)
        }.count
        #expect(printed > 0)
        let status = try await CastScanProcess.run(["report", "status", "--spool", spool, "--json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: status.stdoutData) as? [String: Any], "\(status)")
        #expect(object["pending"] as? Int == printed)
        #expect(object["dropped"] as? Int == 0)
        let send = try await CastScanProcess.run(["report", "send", "--report", Self.unreachable, "--spool", spool])
        #expect(send.exitCode == 75, "\(send)")
        #expect(send.stdout.contains("sent 0, failed \(printed)"), "\(send)")
    }

    @Test("a full spool keeps the newest events and reports the drops in status and on stderr")
    func full() async throws {
        let directory = try TestDirectory()
        let spool = directory.path("spool")
        let watch = try await CastScanProcess.run([
            "watch", "--jsonl", "--replay", FixturePaths.livingRoom, "--report", Self.unreachable, "--spool", spool,
            "--spool-max-events", "2",
        ])
        #expect(watch.exitCode == 0, "\(watch)")
        let printed = watch.stdoutLines.filter { $0.contains(#""device":"#) }.count
        try #require(printed > 2, "the replay has too few device events to fill the spool: \(printed)")
        #expect(watch.stderr.contains("dropped"), "\(watch)")
        let status = try await CastScanProcess.run(["report", "status", "--spool", spool])
        #expect(status.stdout.contains("pending: 2 events"), "\(status)")
        #expect(status.stdout.contains("dropped by the spool's bounds: \(printed - 2)"), "\(status)")
    }

    @Test(
        "a damaged spool is said, set aside with its bytes kept, and a new one used; the watch goes on",
        arguments: ["garbage", "truncated"])
    func damaged(kind: String) async throws {
        let directory = try TestDirectory()
        let spool = directory.path("spool")
        let database = spool + "/events.sqlite"
        if kind == "garbage" {
            try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
            try Data("not a database \u{1B}[2J".utf8).write(to: URL(fileURLWithPath: database))
        } else {
            _ = try await CastScanProcess.run(
                ["watch", "--replay", FixturePaths.livingRoom, "--report", Self.unreachable, "--spool", spool])
            let whole = try Data(contentsOf: URL(fileURLWithPath: database))
            try whole.prefix(whole.count / 3).write(to: URL(fileURLWithPath: database))
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: database))
        let watch = try await CastScanProcess.run(
            ["watch", "--jsonl", "--replay", FixturePaths.livingRoom, "--report", Self.unreachable, "--spool", spool])
        #expect(watch.exitCode == 0, "\(watch)")
        #expect(watch.stderr.contains("set aside"), "\(watch)")
        #expect(!watch.stderr.unicodeScalars.contains("\u{1B}"))
        let aside = try FileManager.default.contentsOfDirectory(atPath: spool).filter {
            $0.hasPrefix("events.sqlite.damaged-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm")
        }
        try #require(aside.count == 1, "\(aside)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: spool + "/" + aside[0])) == before)
        let status = try await CastScanProcess.run(["report", "status", "--spool", spool, "--json"])
        #expect(status.exitCode == 0, "\(status)")
        let object = try #require(try JSONSerialization.jsonObject(with: status.stdoutData) as? [String: Any])
        #expect((object["pending"] as? Int ?? 0) > 0)
    }

    @Test("a spool path that is not a directory is refused (73) and left as it was", arguments: ["file", "fifo"])
    func refused(kind: String) async throws {
        let directory = try TestDirectory()
        let spool = directory.path("spool")
        if kind == "file" {
            try Data("keep".utf8).write(to: URL(fileURLWithPath: spool))
        } else {
            #expect(mkfifo(spool, 0o644) == 0)
        }
        let before = try EndToEndNoHarmTests.Identity(lstat: spool)
        for arguments in [
            ["watch", "--replay", FixturePaths.livingRoom, "--report", Self.unreachable, "--spool", spool],
            ["report", "status", "--spool", spool],
            ["report", "send", "--report", Self.unreachable, "--spool", spool],
        ] {
            let result = try await CastScanProcess.run(arguments)
            #expect(result.exitCode == 73, "\(result)")
            #expect(result.stderr.contains("not a directory"), "\(result)")
        }
        #expect(try EndToEndNoHarmTests.Identity(lstat: spool) == before)
        if kind == "file" { #expect(try Data(contentsOf: URL(fileURLWithPath: spool)) == Data("keep".utf8)) }
    }

    @Test(
        "collector URLs: credentials, other schemes and missing hosts are usage errors (64) that never echo a password",
        arguments: ["http://alice:s3cret@127.0.0.1/x", "ftp://127.0.0.1/x", "http:///x", "127.0.0.1:80"])
    func badURL(url: String) async throws {
        let directory = try TestDirectory()
        let result = try await CastScanProcess.run([
            "report", "send", "--report", url, "--spool", directory.path("spool"),
        ])
        #expect(result.exitCode == 64, "\(result)")
        #expect(!result.stderr.contains("s3cret"), "\(result)")
        #expect(
            !FileManager.default.fileExists(atPath: directory.path("spool")), "a usage error must not create the spool")
    }

    @Test("report send needs --report; report status takes no collector")
    func usage() async throws {
        let directory = try TestDirectory()
        let send = try await CastScanProcess.run(["report", "send", "--spool", directory.path("spool")])
        #expect(send.exitCode == 64, "\(send)")
        let bare = try await CastScanProcess.run(["report"])
        #expect(bare.exitCode == 64, "\(bare)")
    }
}
