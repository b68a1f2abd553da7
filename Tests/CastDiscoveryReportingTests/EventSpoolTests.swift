@testable import CastDiscoveryReporting
import Foundation
import Testing

/// A fresh spool directory under /tmp, removed at the end of the test.
final class SpoolDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("spool-test-\(UUID())").path
    }

    var database: String { path + "/" + EventSpool.fileName }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

@Suite("Event spool: durable, bounded, and careful with what it finds on disk")
struct EventSpoolTests {
    @Test("events survive reopening, oldest first; removal and counts are exact")
    func persistence() throws {
        let directory = try SpoolDirectory()
        do {
            let spool = try EventSpool(directory: directory.path, limits: SpoolLimits())
            for index in 0..<5 {
                try spool.record(id: "e\(index)", body: Array("{\"id\":\"e\(index)\"}".utf8), at: 1000 + Double(index))
            }
        }
        let spool = try EventSpool(directory: directory.path, limits: SpoolLimits())
        let stored = try spool.oldest(limit: 3, through: try spool.newestSequence())
        #expect(stored.map(\.id) == ["e0", "e1", "e2"])
        try spool.remove(ids: stored.map(\.id))
        let status = try spool.status(now: 1010)
        #expect(status.pending == 2)
        #expect(status.oldestPendingAge == 7)
        #expect(status.dropped == 0)
        #expect(try spool.count(through: stored[0].sequence) == 0)
    }

    @Test("past the count bound the oldest go, and every drop is counted")
    func countBound() throws {
        let directory = try SpoolDirectory()
        let spool = try EventSpool(directory: directory.path, limits: SpoolLimits(maximumEvents: 3))
        var dropped = 0
        for index in 0..<10 { dropped += try spool.record(id: "e\(index)", body: Array("{}".utf8), at: 1000) }
        #expect(dropped == 7)
        #expect(try spool.oldest(limit: 10, through: .max).map(\.id) == ["e7", "e8", "e9"])
        #expect(try spool.status(now: 1000).dropped == 7)
    }

    @Test("events older than the age bound go, counted")
    func ageBound() throws {
        let directory = try SpoolDirectory()
        let spool = try EventSpool(directory: directory.path, limits: SpoolLimits(maximumAge: .seconds(60)))
        try spool.record(id: "old", body: Array("{}".utf8), at: 1000)
        try spool.record(id: "new", body: Array("{}".utf8), at: 1050)
        #expect(try spool.expire(now: 1100) == 1)
        let status = try spool.status(now: 1100)
        #expect(status.pending == 1 && status.dropped == 1)
    }

    @Test(
        "a damaged or foreign file is set aside and a new spool started",
        arguments: [
            Array("this is not a database, just text".utf8),
            Array("SQLite format 3\u{0}".utf8) + [UInt8](repeating: 0xFF, count: 4000),
        ])
    func damaged(contents: [UInt8]) throws {
        let directory = try SpoolDirectory()
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        try Data(contents).write(to: URL(fileURLWithPath: directory.database))
        let spool = try EventSpool(directory: directory.path, limits: SpoolLimits())
        #expect(spool.setAside.count == 1)
        let aside = try #require(spool.setAside.first)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: aside)) == Data(contents), "the damaged file is kept as it was")
        try spool.record(id: "e", body: Array("{}".utf8), at: 1)
        #expect(try spool.status(now: 1).pending == 1)
    }

    @Test("a truncated spool is set aside, never crashes")
    func truncated() throws {
        let directory = try SpoolDirectory()
        do {
            let spool = try EventSpool(directory: directory.path, limits: SpoolLimits())
            for index in 0..<200 {
                try spool.record(id: "e\(index)", body: Array(repeating: UInt8(ascii: "x"), count: 500), at: 1)
            }
        }
        let whole = try Data(contentsOf: URL(fileURLWithPath: directory.database))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: directory.database))
        let spool = try EventSpool(directory: directory.path, limits: SpoolLimits())
        #expect(spool.setAside.count == 1)
        #expect(try spool.status(now: 1).pending == 0)
    }

    @Test("a spool path that is a file is refused and left as it was")
    func notADirectory() throws {
        let directory = try SpoolDirectory()
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: directory.path))
        #expect(throws: EventReportError.spoolNotADirectory(path: directory.path, kind: "a regular file")) {
            try EventSpool(directory: directory.path, limits: SpoolLimits())
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path)) == Data("keep me".utf8))
    }

    @Test("a spool file that is a FIFO or a link is refused and left alone")
    func notRegular() throws {
        let directory = try SpoolDirectory()
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        #expect(mkfifo(directory.database, 0o600) == 0)
        #expect(throws: EventReportError.self) { try EventSpool(directory: directory.path, limits: SpoolLimits()) }
        var info = stat()
        #expect(lstat(directory.database, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
        try FileManager.default.removeItem(atPath: directory.database)
        let target = directory.path + "/elsewhere"
        try Data("target".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: directory.database, withDestinationPath: target)
        #expect(throws: EventReportError.self) { try EventSpool(directory: directory.path, limits: SpoolLimits()) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("target".utf8))
    }
}
