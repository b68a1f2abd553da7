@testable import CastDiscoveryReporting
import Foundation
import Testing

/// Records `count` events `e0`... into `spool`, each with a body of `size` bytes.
private func fill(_ spool: EventSpool, count: Int, prefix: String = "e", size: Int = 200, at time: Double = 1000) throws
{
    for index in 0..<count {
        try spool.record(id: "\(prefix)\(index)", body: Array(repeating: UInt8(ascii: "x"), count: size), at: time)
    }
}

private func ids(_ spool: EventSpool) throws -> [String] {
    try spool.oldest(limit: 1_000_000, through: .max).map(\.id)
}

@Suite("Event spool: a file moved away, removed, replaced or damaged in use is recovered from, nothing readable lost")
struct EventSpoolRecoveryTests {
    @Test("moved away: a fresh spool at the path takes every undelivered event; the file moved away keeps its rows")
    func movedAway() throws {
        let directory = try SpoolDirectory()
        let elsewhere = try SpoolDirectory()
        let spool = try EventSpool(directory: directory.path, limits: SpoolLimits())
        try fill(spool, count: 50)
        try FileManager.default.createDirectory(atPath: elsewhere.path, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: directory.database, toPath: elsewhere.database)
        try spool.record(id: "after", body: Array("{}".utf8), at: 1001)
        let recoveries = spool.takeRecoveries()
        #expect(recoveries.count == 1, "\(recoveries)")
        #expect(recoveries.first?.cause == .replaced("its file was moved away or removed"))
        #expect(recoveries.first?.carried == 50 && recoveries.first?.complete == true)
        #expect(try ids(spool) == (0..<50).map { "e\($0)" } + ["after"])
        // The old log was written into the file moved away, and the empty one left behind gone.
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(
            names.allSatisfy {
                $0.hasPrefix(EventSpool.fileName) && !$0.contains(".orphaned") && !$0.contains("rescue")
            }, "\(names)")
        let moved = try EventSpool(directory: elsewhere.path, limits: SpoolLimits())
        #expect(try ids(moved) == (0..<50).map { "e\($0)" })
    }

    @Test("its directory removed: made again (0700), every undelivered event in the new spool")
    func directoryRemoved() throws {
        let directory = try SpoolDirectory()
        let spool = try EventSpool(directory: directory.path, limits: SpoolLimits())
        try fill(spool, count: 20)
        try FileManager.default.removeItem(atPath: directory.path)
        try spool.record(id: "after", body: Array("{}".utf8), at: 1001)
        #expect(spool.takeRecoveries().map(\.cause) == [.replaced("its directory was removed")])
        #expect(try spool.status(now: 1001).pending == 21)
        var info = stat()
        #expect(lstat(directory.path, &info) == 0 && info.st_mode & 0o777 == 0o700)
    }

    @Test("truncated in place: set aside with its log, the events the open connection still reads carried over")
    func truncated() throws {
        let directory = try SpoolDirectory()
        let spool = try EventSpool(directory: directory.path, limits: SpoolLimits())
        try fill(spool, count: 300, size: 500)
        #expect(truncate(directory.database, 0) == 0)
        try spool.record(id: "after", body: Array("{}".utf8), at: 1001)
        let recovery = try #require(spool.takeRecoveries().first)
        guard case .damaged(let detail) = recovery.cause else { Issue.record("\(recovery)"); return }
        #expect(detail.hasPrefix("truncated from"))
        #expect(recovery.carried == 300 && recovery.complete)
        #expect(
            recovery.setAside.contains { $0.hasSuffix("-wal") } && recovery.setAside.count >= 2, "\(recovery.setAside)")
        for file in recovery.setAside { #expect(FileManager.default.fileExists(atPath: file), "\(file)") }
        #expect(try spool.status(now: 1001).pending == 301)
    }

    @Test(
        "damaged inside (pages only quick_check reads from disk): found by a full check, all still readable carried over"
    )
    func damagedInside() throws {
        let directory = try SpoolDirectory()
        let spool = try EventSpool(directory: directory.path, limits: SpoolLimits())
        try fill(spool, count: 300, size: 500)
        try spool.checkpoint()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: directory.database)[.size] as? Int)
        let handle = try #require(FileHandle(forUpdatingAtPath: directory.database))
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: size / 2 - 4096))
        try handle.close()
        // The cheap checks (identity, size, header) see nothing; a full one (as at the end of
        // a program) does.
        try spool.record(id: "before", body: Array("{}".utf8), at: 1001)
        try spool.checkpoint()
        try spool.record(id: "after", body: Array("{}".utf8), at: 1001)
        let recovery = try #require(spool.takeRecoveries().first)
        guard case .damaged(let detail) = recovery.cause else { Issue.record("\(recovery)"); return }
        #expect(detail.hasPrefix("the integrity check failed"), "\(detail)")
        #expect(recovery.carried == 301)
        #expect(try spool.status(now: 1001).pending == 302)
    }

    @Test("another spool put at its path: both files' events kept, each once")
    func replacedByAnotherSpool() throws {
        let directory = try SpoolDirectory()
        let other = try SpoolDirectory()
        let spool = try EventSpool(directory: directory.path, limits: SpoolLimits())
        try fill(spool, count: 10, prefix: "mine")
        do {
            let second = try EventSpool(directory: other.path, limits: SpoolLimits())
            try fill(second, count: 5, prefix: "theirs")
            try second.checkpoint()
        }
        #expect(rename(other.database, directory.database) == 0)
        try spool.record(id: "after", body: Array("{}".utf8), at: 1001)
        #expect(spool.takeRecoveries().map(\.cause) == [.replaced("another file is at its path now")])
        #expect(Set(try ids(spool)) == Set((0..<10).map { "mine\($0)" } + (0..<5).map { "theirs\($0)" } + ["after"]))
        #expect(try ids(spool).count == 16)
    }

    @Test("a rescue file left by a process that is gone is taken over when the spool opens; a live one's is left")
    func rescueTakenOver() throws {
        let directory = try SpoolDirectory()
        let source = try SpoolDirectory()
        do {
            let spool = try EventSpool(directory: source.path, limits: SpoolLimits())
            try fill(spool, count: 3, prefix: "rescued")
            try spool.checkpoint()
        }
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let gone = directory.path + "/" + EventSpool.rescuePrefix + "\(Int32.max)-1"
        let alive = directory.path + "/" + EventSpool.rescuePrefix + "\(getppid())-1"
        try FileManager.default.copyItem(atPath: source.database, toPath: gone)
        try FileManager.default.copyItem(atPath: source.database, toPath: alive)
        let spool = try EventSpool(directory: directory.path, limits: SpoolLimits())
        let recoveries = spool.takeRecoveries()
        #expect(recoveries.count == 1 && recoveries.first?.carried == 3, "\(recoveries)")
        #expect(recoveries.first?.cause == .rescued(gone))
        #expect(try ids(spool) == ["rescued0", "rescued1", "rescued2"])
        #expect(!FileManager.default.fileExists(atPath: gone))
        #expect(FileManager.default.fileExists(atPath: alive), "a running process's rescue file was taken")
    }

    @Test("copying from a damaged file steps over the rows it cannot read and keeps the rest")
    func salvageStepsOverDamage() throws {
        let directory = try SpoolDirectory()
        do {
            let spool = try EventSpool(directory: directory.path, limits: SpoolLimits())
            // 2000 events in one transaction (recording them one by one would sync 2000 times).
            let bulk = try SQLiteDatabase(path: directory.database)
            try bulk.execute(
                """
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 1999)
                INSERT INTO events (id, recorded, body) SELECT 'e' || i, 1000, randomblob(300) FROM n
                """)
            bulk.close()
            try spool.checkpoint()
        }
        // Pages in the middle of the table, read by a fresh connection (no cache): damaged.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: directory.database)[.size] as? Int)
        let handle = try #require(FileHandle(forUpdatingAtPath: directory.database))
        try handle.seek(toOffset: UInt64(size / 4096 / 3 * 4096))
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 8 * 4096))
        try handle.close()
        let source = try SQLiteDatabase(path: directory.database)
        let targetDirectory = try SpoolDirectory()
        let target = try EventSpool(directory: targetDirectory.path, limits: SpoolLimits())
        // The spool's own connection is private: copy through a second one to its file.
        let into = try SQLiteDatabase(path: targetDirectory.database)
        let (copied, complete) = try into.transaction { () throws(SQLiteError) in
            try EventSpool.copyEvents(from: source, into: into)
        }
        #expect(!complete)
        #expect(copied > 1000 && copied < 2000, "\(copied) copied")
        let kept = try ids(target)
        #expect(
            kept.first == "e0" && kept.last == "e1999", "the rows after the damage were stepped over: \(kept.suffix(3))"
        )
    }
}
