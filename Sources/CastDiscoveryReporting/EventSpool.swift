import CastDiscovery
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The events waiting to be delivered, in an SQLite database (WAL, synchronous commits) in the
/// spool directory: an event recorded is on disk before ``record(_:at:)`` returns and survives
/// `kill -9` and power loss. The spool is bounded by count and age; what the bounds drop is
/// counted. A damaged file is set aside (renamed) and a new one started.
final class EventSpool {
    /// The database's file name in the spool directory.
    static let fileName = "events.sqlite"
    /// The schema version in `PRAGMA user_version`.
    static let schemaVersion: Int64 = 1

    /// One stored event.
    struct Event: Sendable, Hashable {
        var sequence: Int64
        var id: String
        /// Seconds since 1970 when it was recorded.
        var recorded: Double
        /// The event as a JSON object, with its id.
        var body: [UInt8]
    }

    let directory: String
    let limits: SpoolLimits
    /// Files set aside as damaged when the spool was opened.
    private(set) var setAside: [String] = []
    private var database: SQLiteDatabase

    /// Opens the spool in `directory`, creating the directory (mode 0700) when missing.
    ///
    /// - Throws: ``EventReportError`` when the directory or the database file is something else
    ///   than a directory and a regular file, or cannot be used.
    init(directory: String, limits: SpoolLimits) throws(EventReportError) {
        self.directory = directory
        self.limits = limits
        try Self.prepareDirectory(directory)
        let path = directory + "/" + Self.fileName
        for file in [path, path + "-wal", path + "-shm"] { try Self.checkRegularOrAbsent(file) }
        do {
            database = try Self.open(path)
        } catch let error where error.isCorruption {
            setAside = try Self.setAside(path)
            do {
                database = try Self.open(path)
            } catch {
                throw .spoolUnusable(path: path, reason: error.description)
            }
        } catch {
            throw .spoolUnusable(path: path, reason: error.description)
        }
    }

    /// Stores `body` (a JSON object with its `id`) recorded at `time`, then applies the bounds
    /// in the same transaction; returns how many older events the bounds dropped.
    @discardableResult
    func record(id: String, body: [UInt8], at time: Double) throws(EventReportError) -> Int {
        try use { () throws(SQLiteError) -> Int in
            try database.transaction { () throws(SQLiteError) -> Int in
                let insert = try database.prepare("INSERT INTO events (id, recorded, body) VALUES (?, ?, ?)")
                try insert.bind(1, id)
                try insert.bind(2, time)
                try insert.bind(3, body)
                try insert.run()
                return try applyLimits(now: time)
            }
        }
    }

    /// Up to `limit` of the oldest events with a sequence number at most `through`.
    func oldest(limit: Int, through: Int64) throws(EventReportError) -> [Event] {
        try use { () throws(SQLiteError) -> [Event] in
            let query = try database.prepare(
                "SELECT seq, id, recorded, body FROM events WHERE seq <= ? ORDER BY seq LIMIT ?")
            try query.bind(1, through)
            try query.bind(2, Int64(max(0, limit)))
            var events: [Event] = []
            while try query.step() {
                events.append(Event(sequence: query.int64(0), id: query.text(1), recorded: query.double(2), body: query.bytes(3)))
            }
            return events
        }
    }

    /// Removes delivered events.
    func remove(sequences: [Int64]) throws(EventReportError) {
        guard !sequences.isEmpty else { return }
        try use { () throws(SQLiteError) in
            try database.transaction { () throws(SQLiteError) in
                let delete = try database.prepare("DELETE FROM events WHERE seq = ?")
                for sequence in sequences {
                    try delete.bind(1, sequence)
                    try delete.run()
                    delete.reset()
                }
            }
        }
    }

    /// How many events with a sequence number at most `through` are stored.
    func count(through: Int64) throws(EventReportError) -> Int {
        try use { () throws(SQLiteError) -> Int in
            let query = try database.prepare("SELECT COUNT(*) FROM events WHERE seq <= ?")
            try query.bind(1, through)
            return try query.step() ? Int(clamping: max(0, query.int64(0))) : 0
        }
    }

    /// The newest sequence number stored, 0 when empty.
    func newestSequence() throws(EventReportError) -> Int64 {
        try use { () throws(SQLiteError) -> Int64 in
            let query = try database.prepare("SELECT COALESCE(MAX(seq), 0) FROM events")
            return try query.step() ? max(0, query.int64(0)) : 0
        }
    }

    /// Applies the age bound now (the count bound holds after every insert).
    @discardableResult
    func expire(now: Double) throws(EventReportError) -> Int {
        try use { () throws(SQLiteError) -> Int in
            try database.transaction { () throws(SQLiteError) -> Int in try applyLimits(now: now) }
        }
    }

    /// Moves what the write-ahead log holds into the database file and empties the log, so the
    /// file alone holds every event (for a clean end; the log is as durable).
    func checkpoint() throws(EventReportError) {
        try use { () throws(SQLiteError) in try database.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// Saves the result of a send, for ``status(now:)``.
    func saveLastSend(_ result: SendResult) throws(EventReportError) {
        try use { () throws(SQLiteError) in
            let save = try database.prepare(
                "INSERT OR REPLACE INTO last_send (slot, at, delivered, failed, error) VALUES (1, ?, ?, ?, ?)")
            try save.bind(1, result.time)
            try save.bind(2, Int64(result.delivered))
            try save.bind(3, Int64(result.failed))
            try save.bind(4, result.error ?? "")
            try save.run()
        }
    }

    /// What is pending, what was dropped and how the last send went.
    func status(now: Double) throws(EventReportError) -> SpoolStatus {
        try use { () throws(SQLiteError) -> SpoolStatus in
            let counts = try database.prepare("SELECT COUNT(*), MIN(recorded) FROM events")
            var pending = 0
            var oldest: Double?
            if try counts.step() {
                pending = Int(clamping: max(0, counts.int64(0)))
                if !counts.isNull(1) { oldest = counts.double(1) }
            }
            let age = oldest.flatMap { $0.isFinite ? max(0, now - $0) : nil }
            var lastSend: SendResult?
            let last = try database.prepare("SELECT at, delivered, failed, error FROM last_send WHERE slot = 1")
            if try last.step(), last.double(0).isFinite {
                let error = last.text(3)
                lastSend = SendResult(
                    delivered: Int(clamping: max(0, last.int64(1))), failed: Int(clamping: max(0, last.int64(2))),
                    time: last.double(0), error: error.isEmpty ? nil : error)
            }
            return SpoolStatus(
                pending: pending, oldestPendingAge: age, dropped: try counter("dropped"), lastSend: lastSend,
                setAside: setAside)
        }
    }

    // MARK: - Inside

    /// Runs `body`, turning SQLite's errors into the spool's.
    private func use<T>(_ body: () throws(SQLiteError) -> T) throws(EventReportError) -> T {
        do {
            return try body()
        } catch {
            if error.isFull { throw .spoolFull(path: directory, reason: error.description) }
            throw .spoolUnusable(path: directory + "/" + Self.fileName, reason: error.description)
        }
    }

    /// Drops the oldest events past the count bound and those older than the age bound; counts
    /// them in the `dropped` counter and returns how many.
    private func applyLimits(now: Double) throws(SQLiteError) -> Int {
        let byAge = try database.prepare("DELETE FROM events WHERE recorded < ?")
        try byAge.bind(1, now - limits.maximumAge.seconds)
        try byAge.run()
        var dropped = database.changes
        let byCount = try database.prepare(
            "DELETE FROM events WHERE seq IN (SELECT seq FROM events ORDER BY seq DESC LIMIT -1 OFFSET ?)")
        try byCount.bind(1, Int64(limits.maximumEvents))
        try byCount.run()
        dropped += database.changes
        if dropped > 0 {
            let add = try database.prepare(
                "INSERT INTO counters (name, value) VALUES ('dropped', ?) "
                    + "ON CONFLICT(name) DO UPDATE SET value = value + excluded.value")
            try add.bind(1, Int64(dropped))
            try add.run()
        }
        return dropped
    }

    private func counter(_ name: String) throws(SQLiteError) -> Int {
        let query = try database.prepare("SELECT value FROM counters WHERE name = ?")
        try query.bind(1, name)
        return try query.step() ? Int(clamping: max(0, query.int64(0))) : 0
    }

    /// Opens the database, sets WAL and synchronous commits, checks it is whole and ours, and
    /// creates the tables.
    private static func open(_ path: String) throws(SQLiteError) -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: path)
        database.setBusyTimeout(milliseconds: 5000)
        try database.execute("PRAGMA journal_mode = WAL")
        try database.execute("PRAGMA synchronous = FULL")
        let check = try database.prepare("PRAGMA quick_check")
        guard try check.step(), check.text(0) == "ok" else {
            throw SQLiteError.corruption("the integrity check failed")
        }
        let version = try database.prepare("PRAGMA user_version")
        let found = try version.step() ? version.int64(0) : 0
        let tables = try database.prepare("SELECT COUNT(*) FROM sqlite_master")
        let tableCount = try tables.step() ? tables.int64(0) : 0
        guard found == schemaVersion || (found == 0 && tableCount == 0) else {
            throw SQLiteError.corruption("not a cast-scan event spool (schema \(found))")
        }
        try database.execute("""
            CREATE TABLE IF NOT EXISTS events (
                seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
                recorded REAL NOT NULL, body BLOB NOT NULL);
            CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS last_send (
                slot INTEGER PRIMARY KEY, at REAL NOT NULL, delivered INTEGER NOT NULL,
                failed INTEGER NOT NULL, error TEXT NOT NULL);
            PRAGMA user_version = \(schemaVersion);
            """)
        return database
    }

    /// Creates the spool directory when missing; refuses a path that is not a directory.
    private static func prepareDirectory(_ directory: String) throws(EventReportError) {
        var info = stat()
        if lstat(directory, &info) == 0, FileKind(mode: info.st_mode) != .directory {
            // A link to a directory is followed; anything else is left alone.
            var target = stat()
            guard FileKind(mode: info.st_mode) == .symbolicLink, stat(directory, &target) == 0,
                FileKind(mode: target.st_mode) == .directory
            else { throw .spoolNotADirectory(path: directory, kind: "\(FileKind(mode: info.st_mode))") }
            return
        }
        do throws(AtomicFile.Failure) {
            try AtomicFile.makeDirectories(directory, mode: 0o700)
        } catch {
            if case .notRegular(let path, let kind) = error { throw .spoolNotADirectory(path: path, kind: "\(kind)") }
            throw .spoolUnusable(path: directory, reason: "\(error)")
        }
    }

    /// Refuses a database file (or its WAL or shared-memory file) that exists and is not a
    /// regular file: SQLite would write into it.
    private static func checkRegularOrAbsent(_ path: String) throws(EventReportError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        let kind = FileKind(mode: info.st_mode)
        guard kind == .regular else { throw .spoolFileNotRegular(path: path, kind: "\(kind)") }
    }

    /// Renames a damaged database and its WAL and shared-memory files to
    /// `events.sqlite.damaged-SECONDS`; returns the new names.
    private static func setAside(_ path: String) throws(EventReportError) -> [String] {
        let suffix = ".damaged-\(Int(Date().timeIntervalSince1970))"
        var moved: [String] = []
        for file in [path, path + "-wal", path + "-shm"] {
            var info = stat()
            guard lstat(file, &info) == 0 else { continue }
            guard FileKind(mode: info.st_mode) == .regular else {
                throw .spoolFileNotRegular(path: file, kind: "\(FileKind(mode: info.st_mode))")
            }
            let target = path + suffix + file.dropFirst(path.count)
            guard rename(file, target) == 0 else {
                throw .spoolUnusable(path: file, reason: "cannot set the damaged file aside: \(systemErrorMessage(errno))")
            }
            moved.append(target)
        }
        return moved
    }
}
