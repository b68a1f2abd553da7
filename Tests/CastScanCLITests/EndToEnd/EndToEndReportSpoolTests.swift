import CastDiscovery
@testable import CastScanCLI
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The event spool under a careless neighbour, with the built binary: the spool moved away,
/// removed or damaged during a watch (every event counted by `id` at a real collector on
/// loopback afterwards), `report status` with bounds, set-aside names, links in the spool's
/// path, and how drops are said.
///
/// Every watch here that reports lasts a second at least, so that libcurl is loaded for its
/// first send (about 100 ms after the first event) well before the watch ends: a process that
/// exits while another thread initialises OpenSSL can crash in its exit handlers (seen once in
/// 240 runs under load, before a replay's end waited for the send due), a fault that is not
/// this suite's subject.
@Suite("cast-scan report: the spool under a careless neighbour, end to end")
struct EndToEndReportSpoolTests {
    static let unreachable = "http://127.0.0.1:9/events"
    /// Device events in a disturbed watch, and the seconds the replay spreads them over: the
    /// watch is stopped a third of the way, 2 s before its end, by a thread that checks every
    /// millisecond.
    static let events = 500
    static let replaySeconds = 3.0

    /// What is done to the spool while the watch records into it.
    enum Disturbance: String, CaseIterable, CustomTestStringConvertible {
        case moved, directoryRemoved, truncated, headerOverwritten, damagedInside

        var testDescription: String { rawValue }

        /// What the watch says on stderr.
        var said: String {
            switch self {
            case .moved: "(its file was moved away or removed): a new one is used there"
            case .directoryRemoved: "(its directory was removed): a new one is used there"
            case .truncated: "was damaged while in use (truncated from"
            case .headerOverwritten: "was damaged while in use (its header was overwritten)"
            case .damagedInside: "was damaged while in use (the integrity check failed"
            }
        }

        /// Does it (from any thread: failures are thrown, not recorded).
        func apply(to spool: String, movingTo aside: String) throws {
            let database = spool + "/events.sqlite"
            switch self {
            case .moved:
                try FileManager.default.moveItem(atPath: database, toPath: aside)
            case .directoryRemoved:
                try FileManager.default.removeItem(atPath: spool)
            case .truncated:
                guard truncate(database, 0) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            case .headerOverwritten, .damagedInside:
                guard let handle = FileHandle(forUpdatingAtPath: database) else { throw POSIXError(.ENOENT) }
                defer { try? handle.close() }
                if self == .damagedInside {
                    // The first half of the file but its header page: rows written into it by
                    // a checkpoint and not changed since (later checkpoints would heal pages
                    // that the log holds again).
                    let size = try FileManager.default.attributesOfItem(atPath: database)[.size] as? Int ?? 0
                    try handle.seek(toOffset: 4096)
                    try handle.write(
                        contentsOf: Data((0..<max(0, size / 2 - 4096)).map { _ in UInt8.random(in: 0...255) }))
                } else {
                    try handle.write(contentsOf: Data("not a database any more".utf8))
                }
            }
        }
    }

    @Test(
        "a spool moved away, removed, truncated or overwritten under a watch is said, recorded into afresh, and no event is lost: every id arrives once",
        arguments: Disturbance.allCases)
    func disturbed(_ disturbance: Disturbance) async throws {
        let directory = try TestDirectory()
        let spool = directory.path("spool")
        let replay = try ReplayWriter.paced(count: Self.events, over: Self.replaySeconds).write(to: directory)
        try directory.write("mode", "refuse")
        let collector = try await ReportCollector(["--mode-file", directory.path("mode")], in: directory)
        let watch = try CastScanProcess.start([
            "watch", "--jsonl", "--replay", replay, "--report", collector.url, "--spool", spool,
        ])
        // Each event is stored before it is printed: a third printed, a third at least stored.
        // Damage inside the file where it stays: once a checkpoint has written rows into it.
        let database = spool + "/events.sqlite"
        let aside = directory.path("moved.sqlite")
        let before = try #require(
            await Self.disturbMidway(watch, once: { disturbance != .damagedInside || Self.checkpointed(database) }) {
                try disturbance.apply(to: spool, movingTo: aside)
            })
        if disturbance == .headerOverwritten {
            try await Self.keepHeaderOverwritten(spool, under: watch, saying: disturbance.said)
        }
        let result = await watch.wait(timeout: .seconds(60))
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdoutLines.filter { $0.contains(#""event":"inserted""#) }.count == Self.events, "\(result)")
        #expect(result.stderr.contains(disturbance.said), "\(result)")

        try directory.write("mode", "accept")
        let send = try await CastScanProcess.run(["report", "send", "--report", collector.url, "--spool", spool])
        #expect(send.exitCode == 0, "\(send)")
        let received = Self.received(collector)
        let ids = Set(received.map(\.id))
        #expect(
            received.count == Self.events && ids.count == Self.events,
            "\(received.count) received, \(ids.count) distinct ids, of \(Self.events)\n\(result)\n\(send)")
        let names = Set(received.compactMap { ($0.event["device"] as? [String: Any])?["friendlyName"] as? String })
        #expect(names == Set((0..<Self.events).map { "Device \($0)" }))

        if disturbance == .moved {
            // The file moved away keeps its rows (its log was written into it).
            let aside = directory.path("aside")
            try FileManager.default.createDirectory(atPath: aside, withIntermediateDirectories: true)
            try FileManager.default.moveItem(atPath: directory.path("moved.sqlite"), toPath: aside + "/events.sqlite")
            let status = try await CastScanProcess.run(["report", "status", "--spool", aside, "--json"])
            let object = try #require(
                try JSONSerialization.jsonObject(with: status.stdoutData) as? [String: Any], "\(status)")
            #expect((object["pending"] as? Int ?? 0) >= before, "\(status)")
        }
    }

    @Test("a spool moved away while the collector takes events: each event arrives exactly once")
    func movedWhileDelivering() async throws {
        let directory = try TestDirectory()
        let spool = directory.path("spool")
        let replay = try ReplayWriter.paced(count: Self.events, over: Self.replaySeconds).write(to: directory)
        let collector = try await ReportCollector(in: directory)
        let watch = try CastScanProcess.start([
            "watch", "--jsonl", "--replay", replay, "--report", collector.url, "--spool", spool,
        ])
        let aside = directory.path("moved.sqlite")
        try #require(
            await Self.disturbMidway(watch) {
                try FileManager.default.moveItem(atPath: spool + "/events.sqlite", toPath: aside)
            } != nil)
        let result = await watch.wait(timeout: .seconds(60))
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.contains(Disturbance.moved.said), "\(result)")
        let send = try await CastScanProcess.run(["report", "send", "--report", collector.url, "--spool", spool])
        #expect(send.exitCode == 0, "\(send)")
        let received = Self.received(collector)
        #expect(
            received.count == Self.events && Set(received.map(\.id)).count == Self.events,
            "\(received.count) received, \(Set(received.map(\.id)).count) distinct, of \(Self.events)\n\(result)\n\(send)"
        )
    }

    @Test(
        "report status with bounds drops nothing and says how many are past them; report send drops them, said on stderr once"
    )
    func statusDropsNothing() async throws {
        let directory = try TestDirectory()
        let spool = directory.path("spool")
        let replay = try ReplayWriter.paced(count: 150, over: 1.0).write(to: directory)
        let watch = try await CastScanProcess.run([
            "watch", "--replay", replay, "--report", Self.unreachable, "--spool", spool,
        ])
        #expect(watch.exitCode == 0, "\(watch)")
        #expect(try await Self.pending(spool) == 150)
        let byCount = try await CastScanProcess.run(["report", "status", "--spool", spool, "--spool-max-events", "1"])
        #expect(byCount.exitCode == 0, "\(byCount)")
        #expect(byCount.stdout.contains("pending: 150 events"), "\(byCount)")
        #expect(byCount.stdout.contains("past the bounds (the next watch or send drops them): 149"), "\(byCount)")
        // Until every event is more than a second old (asked again, with a generous deadline).
        let deadline = ContinuousClock.now + .seconds(60)
        var byAge: ProcessResult
        var object: [String: Any]
        repeat {
            byAge = try await CastScanProcess.run([
                "report", "status", "--spool", spool, "--spool-max-age", "1", "--json",
            ])
            object = try #require(
                try JSONSerialization.jsonObject(with: byAge.stdoutData) as? [String: Any], "\(byAge)")
        } while object["beyondBounds"] as? Int != 150 && ContinuousClock.now < deadline
        #expect(
            object["pending"] as? Int == 150 && object["beyondBounds"] as? Int == 150 && object["dropped"] as? Int == 0,
            "\(byAge)")
        #expect(byAge.stderr.isEmpty, "\(byAge)")
        #expect(try await Self.pending(spool) == 150, "report status dropped events")

        let send = try await CastScanProcess.run(
            ["report", "send", "--report", Self.unreachable, "--spool", spool, "--spool-max-events", "100"])
        #expect(send.exitCode == 75, "\(send)")
        #expect(
            send.stderrLines == ["cast-scan: report: the spool is full: dropped the 50 oldest undelivered events"],
            "\(send)")
        #expect(try await Self.pending(spool) == 100)
    }

    @Test("a damaged spool set aside never replaces an earlier set-aside file, in the same second or not")
    func setAsideNamesAreUnique() async throws {
        let directory = try TestDirectory()
        let spool = directory.path("spool")
        try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
        // Names for this second and the next two are taken already: the set-aside file must
        // find another and leave these as they are.
        let now = Int(Date().timeIntervalSince1970)
        for second in now...(now + 2) {
            try Data("earlier \(second)".utf8).write(
                to: URL(fileURLWithPath: spool + "/events.sqlite.damaged-\(second)"))
        }
        var damaged: [Data] = []
        for run in 0..<2 {
            let garbage = Data("not a database, run \(run)".utf8)
            damaged.append(garbage)
            try garbage.write(to: URL(fileURLWithPath: spool + "/events.sqlite"))
            let status = try await CastScanProcess.run(["report", "status", "--spool", spool])
            #expect(status.exitCode == 0, "\(status)")
            #expect(status.stderr.contains("set aside as"), "\(status)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: spool).filter {
            $0.hasPrefix("events.sqlite.damaged-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm")
                && !$0.hasSuffix("-journal")
        }
        let contents = try names.map { try Data(contentsOf: URL(fileURLWithPath: spool + "/" + $0)) }
        #expect(names.count == 5, "\(names)")
        for second in now...(now + 2) {
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: spool + "/events.sqlite.damaged-\(second)"))
                    == Data("earlier \(second)".utf8))
        }
        for garbage in damaged { #expect(contents.contains(garbage), "a set-aside file was overwritten: \(names)") }
    }

    /// Where a link sits in the way to the spool.
    enum LinkedPath: String, CaseIterable, CustomTestStringConvertible {
        case spoolDirectory, parent, home, stateHome
        var testDescription: String { rawValue }
    }

    @Test(
        "a link on the way to the spool (its directory, a parent, HOME, XDG_STATE_HOME) is followed: events are stored",
        arguments: LinkedPath.allCases)
    func linkedPath(_ linked: LinkedPath) async throws {
        let directory = try TestDirectory()
        let real = directory.path("real")
        let link = directory.path("link")
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        var arguments: [String] = []
        var environment: [String: String] = [:]
        let database: String
        switch linked {
        case .spoolDirectory:
            arguments = ["--spool", link]
            database = real + "/events.sqlite"
        case .parent:
            arguments = ["--spool", link + "/deeper/spool"]
            database = real + "/deeper/spool/events.sqlite"
        case .home:
            environment = ["HOME": link, "XDG_STATE_HOME": ""]
            database = real + "/.local/state/cast-scan/reports/events.sqlite"
        case .stateHome:
            environment = ["XDG_STATE_HOME": link]
            database = real + "/cast-scan/reports/events.sqlite"
        }
        let replay = try ReplayWriter.paced(count: 20, over: 1.0).write(to: directory)
        let watch = try await CastScanProcess.run(
            ["watch", "--replay", replay, "--report", Self.unreachable] + arguments, environment: environment)
        #expect(watch.exitCode == 0, "\(watch)")
        #expect(!watch.stderr.contains("unable to open"), "\(watch)")
        var info = stat()
        #expect(lstat(database, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG, "no spool at \(database)")
        let status = try await CastScanProcess.run(
            ["report", "status", "--json"] + arguments, environment: environment)
        #expect(status.exitCode == 0, "\(status)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: status.stdoutData) as? [String: Any], "\(status)")
        #expect(object["pending"] as? Int == 20, "\(status)")
    }

    @Test(
        "a spool file that is itself a link (the database or its log) is refused with 73 and its target left alone",
        arguments: ["events.sqlite", "events.sqlite-wal", "events.sqlite-journal"])
    func linkedFile(name: String) async throws {
        let directory = try TestDirectory()
        let spool = directory.path("spool")
        try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
        let target = try directory.write("target", "keep")
        try FileManager.default.createSymbolicLink(atPath: spool + "/" + name, withDestinationPath: target)
        for arguments in [
            ["report", "status", "--spool", spool],
            [
                "watch", "--replay", try ReplayWriter.paced(count: 3, over: 0.01).write(to: directory), "--report",
                Self.unreachable, "--spool", spool,
            ],
        ] {
            let result = try await CastScanProcess.run(arguments)
            #expect(result.exitCode == 73, "\(result)")
            #expect(result.stderr.contains("\(name): is a symbolic link, not a regular file"), "\(result)")
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
    }

    @Test("--spool and HOME with bytes that are not UTF-8: the spool lands at exactly those bytes")
    func rawPath() async throws {
        let directory = try TestDirectory()
        let replay = try ReplayWriter.paced(count: 5, over: 1.0).write(to: directory)
        let result = try await CastScanProcess.runScript(
            #"""
            set -e
            "$CAST_SCAN" watch --replay "$2" --report "$3" --spool "$1"/$'spool\xff' >/dev/null
            test -f "$1"/$'spool\xff'/events.sqlite
            "$CAST_SCAN" report status --spool "$1"/$'spool\xff' | grep -o 'pending: [0-9]* events'
            mkdir "$1"/$'home\xfe'
            HOME="$1"/$'home\xfe' XDG_STATE_HOME= "$CAST_SCAN" watch --replay "$2" --report "$3" >/dev/null
            find "$1"/$'home\xfe' -type f -name events.sqlite | grep -c .
            find "$1" | grep -c $'\xef\xbf\xbd' || true
            """#, [directory.url.path, replay, Self.unreachable])
        #expect(result.exitCode == 0, "\(result)")
        // Five events at exactly those bytes, one spool under the HOME that is not UTF-8, and
        // nothing made with U+FFFD.
        #expect(result.stdoutLines == ["pending: 5 events", "1", "0"], "\(result)")
    }

    @Test("a spool at its bound says its drops a line a second at most, every drop counted")
    func dropsBatched() async throws {
        let directory = try TestDirectory()
        let spool = directory.path("spool")
        let replay = try ReplayWriter.paced(count: 300, over: 1.0).write(to: directory)
        let watch = try await CastScanProcess.run(
            ["watch", "--replay", replay, "--report", Self.unreachable, "--spool", spool, "--spool-max-events", "1"])
        #expect(watch.exitCode == 0, "\(watch)")
        let prefix = "cast-scan: report: the spool is full: dropped the "
        let drops = watch.stderrLines.filter { $0.hasPrefix(prefix) }
        let total = drops.compactMap { Int($0.dropFirst(prefix.count).prefix { $0.isNumber }) }.reduce(0, +)
        #expect(total == 299, "\(watch)")
        let seconds = Int(watch.elapsed.components.seconds)
        #expect(!drops.isEmpty && drops.count <= seconds + 2, "\(drops.count) drop lines in \(watch.elapsed)")
        let status = try await CastScanProcess.run(["report", "status", "--spool", spool, "--json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: status.stdoutData) as? [String: Any], "\(status)")
        #expect(object["pending"] as? Int == 1 && object["dropped"] as? Int == 299, "\(status)")
    }

    // MARK: - Helpers

    /// How many `inserted` events the watch has printed so far.
    static func inserted(_ watch: RunningProcess) -> Int {
        String(decoding: watch.currentStdout(), as: UTF8.self).split(separator: "\n").filter {
            $0.contains(#""event":"inserted""#)
        }.count
    }

    /// Once the watch has printed a third of the events and `ready` holds, stops it (`SIGSTOP`),
    /// runs `disturb` and lets it go on (`SIGCONT`), all at once from a thread of its own: the
    /// disturbance lands mid-watch however busy the machine is, with events still to record
    /// after it. Returns how many events the watch had printed; nil, the reason recorded, when
    /// it ended first or had nothing left to record. (A watch held stopped longer than its
    /// sender's timeout would send a batch again: the pause lasts only the disturbance.)
    static func disturbMidway(
        _ watch: RunningProcess, once ready: @escaping @Sendable () -> Bool = { true },
        by disturb: @escaping @Sendable () throws -> Void
    ) async throws -> Int? {
        let outcome = LockedValue<(printed: Int, failure: (any Error)?)>((0, nil))
        let done = await watch.run(when: { inserted(watch) >= events / 3 && ready() }) {
            watch.send(SIGSTOP)
            let printed = inserted(watch)
            do {
                try disturb()
                outcome.withLock { $0.printed = printed }
            } catch {
                outcome.withLock { $0 = (printed, error) }
            }
            watch.send(SIGCONT)
        }
        let (before, failure) = outcome.withLock { $0 }
        if let failure { throw failure }
        guard done != nil, before < events else {
            let result = await watch.wait(timeout: .seconds(30))
            Issue.record("the watch was not disturbed midway (\(before) of \(events) printed)\n\(result)")
            return nil
        }
        return before
    }

    /// Overwrites the header again whenever it is whole again before the watch said the damage:
    /// a checkpoint that writes the header page back from the log (it changes as the file grows)
    /// heals it if it comes between the watch's look at the header and the overwrite. At most
    /// five times; each waits (from a thread of its own) for the message, a whole header, or the
    /// watch's end. Only the file first damaged is overwritten again, and only while the watch,
    /// stopped, has not said the damage nor reached its end (its last look at the file comes
    /// after the "stopped" line): a fresh spool the watch made after seeing the damage, or a
    /// file it no longer looks at, is the test's doing, not the watch's to find.
    static func keepHeaderOverwritten(_ spool: String, under watch: RunningProcess, saying said: String) async throws {
        let database = spool + "/events.sqlite"
        let damaged = fileIdentity(database)
        let failure = LockedValue<(any Error)?>(nil)
        for _ in 0..<5 {
            let healed = LockedValue(false)
            let ran = await watch.run(when: { watch.currentStderr().contains(said) || headerIsWhole(database) }) {
                watch.send(SIGSTOP)
                defer { watch.send(SIGCONT) }
                let ended = String(decoding: watch.currentStdout(), as: UTF8.self).contains(#""event":"stopped""#)
                guard !watch.currentStderr().contains(said), !ended, damaged != nil, fileIdentity(database) == damaged,
                    headerIsWhole(database)
                else { return }
                healed.withLock { $0 = true }
                do {
                    try Disturbance.headerOverwritten.apply(to: spool, movingTo: "")
                } catch {
                    failure.withLock { $0 = error }
                }
            }
            if let error = failure.withLock({ $0 }) { throw error }
            guard ran != nil, healed.withLock({ $0 }) else { return }
        }
    }

    /// The device and inode of the file at `path`, nil when there is none.
    static func fileIdentity(_ path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    /// Whether the file starts with SQLite's header string.
    static func headerIsWhole(_ database: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: database) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 16)) == Data("SQLite format 3\u{0}".utf8)
    }

    /// Whether the database file holds 16 pages or more (a checkpoint wrote rows into it).
    static func checkpointed(_ database: String) -> Bool {
        var info = stat()
        return stat(database, &info) == 0 && info.st_size >= 16 * 4096
    }

    /// Every event the collector accepted, in order, with its `id` (repeated when it came twice).
    static func received(_ collector: ReportCollector) -> [(id: String, event: [String: Any])] {
        collector.entries().compactMap { entry in (entry["id"] as? String).map { ($0, entry) } }
    }

    static func pending(_ spool: String) async throws -> Int? {
        let status = try await CastScanProcess.run(["report", "status", "--spool", spool, "--json"])
        let object = try JSONSerialization.jsonObject(with: status.stdoutData) as? [String: Any]
        return object?["pending"] as? Int
    }
}
