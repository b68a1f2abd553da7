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
/// spool directory: an event recorded is on disk before ``record(id:body:at:)`` returns and
/// survives `kill -9` and power loss. The spool is bounded by count and age; what the bounds
/// drop is counted. A damaged file is set aside (renamed, never over another file) and a new one
/// started.
///
/// The file is watched while in use: before each call its identity (device and inode) is
/// compared with the one opened, its size and header are checked, and at intervals the
/// directory is resolved again and `PRAGMA quick_check` runs on a second connection. A file
/// moved away, removed (with its directory, maybe), replaced, truncated or overwritten is
/// recovered from: the undelivered events the open connection can still read are copied to a
/// rescue file, the old file is let go (a file moved away keeps its rows; a damaged one is set
/// aside), and a fresh spool at the configured path takes them in. Each recovery is kept for
/// ``takeRecoveries()``.
final class EventSpool {
    /// The database's file name in the spool directory.
    static let fileName = "events.sqlite"
    /// The schema version in `PRAGMA user_version`.
    static let schemaVersion: Int64 = 1
    /// How long a statement waits for another connection's lock before the spool is busy.
    static let busyTimeoutMilliseconds: Int32 = 5000
    /// How many pages the write-ahead log holds before a commit moves them into the file.
    static let autocheckpointPages = 100
    /// The start of a rescue file's name: `.events.sqlite.rescue-PID-RANDOM`.
    static let rescuePrefix = ".events.sqlite.rescue-"
    /// The first bytes of every SQLite database file.
    static let header = Array("SQLite format 3\u{0}".utf8)

    /// One stored event.
    struct Event: Sendable, Hashable {
        var sequence: Int64
        var id: String
        /// Seconds since 1970 when it was recorded.
        var recorded: Double
        /// The event as a JSON object, with its id.
        var body: [UInt8]
    }

    /// The spool directory as configured (links in it followed).
    let directory: String
    let limits: SpoolLimits
    /// The longest time between two full checks of the file (the directory resolved again,
    /// `quick_check`); longer when a check takes more than a twentieth of it.
    let checkInterval: Duration
    /// Files set aside as damaged when the spool was opened.
    private(set) var setAside: [String] = []
    /// The database in use; nil after a recovery that could not finish (the next call opens the
    /// spool again).
    private var current: OpenFile?
    private var recoveries: [SpoolRecovery] = []
    private var nextFullCheck: ContinuousClock.Instant

    /// The open database and what its file was when opened.
    private struct OpenFile {
        var database: SQLiteDatabase
        /// The spool directory with its links resolved, as SQLite was given it.
        var directory: String
        var path: String
        var identity: SpoolFiles.Identity
        /// The largest size the file was seen with: it never shrinks in use.
        var size: Int64
    }

    /// What a check found wrong with the file in use.
    private enum Problem {
        /// The path no longer holds the open file.
        case replaced(String)
        /// The open file's contents were changed under it.
        case damaged(String)
    }

    /// The database file as configured, for messages.
    var databasePath: String { directory + "/" + Self.fileName }

    /// Opens the spool in `directory`, creating the directory (mode 0700) when missing.
    ///
    /// - Throws: ``EventReportError`` when the directory or the database file is something else
    ///   than a directory and a regular file, or cannot be used.
    init(directory: String, limits: SpoolLimits, checkInterval: Duration = .seconds(10)) throws(EventReportError) {
        self.directory = directory
        self.limits = limits
        self.checkInterval = checkInterval
        nextFullCheck = .now + checkInterval
        let (file, aside) = try Self.openFile(in: directory)
        current = file
        setAside = aside
        takeOverRescues(in: file)
    }

    /// The recoveries since the last call, oldest first.
    func takeRecoveries() -> [SpoolRecovery] {
        defer { recoveries = [] }
        return recoveries
    }

    /// Stores `body` (a JSON object with its `id`) recorded at `time`, then applies the bounds
    /// in the same transaction; returns how many older events the bounds dropped.
    @discardableResult
    func record(id: String, body: [UInt8], at time: Double) throws(EventReportError) -> Int {
        try record([(id, body)], at: time)
    }

    /// Stores `events` (JSON objects with their `id`s), in order, recorded at `time`, then
    /// applies the bounds, all in one transaction (one commit, one sync to disk): either every
    /// event is stored or, when this throws, none is. Returns how many older events the bounds
    /// dropped.
    @discardableResult
    func record(_ events: [(id: String, body: [UInt8])], at time: Double) throws(EventReportError) -> Int {
        guard !events.isEmpty else { return 0 }
        return try use { (database) throws(SQLiteError) -> Int in
            try database.transaction { () throws(SQLiteError) -> Int in
                let insert = try database.prepare("INSERT INTO events (id, recorded, body) VALUES (?, ?, ?)")
                for event in events {
                    try insert.bind(1, event.id)
                    try insert.bind(2, time)
                    try insert.bind(3, event.body)
                    try insert.run()
                    insert.reset()
                }
                return try applyLimits(database, now: time)
            }
        }
    }

    /// The transactions committed on the spool's connection since it was opened (or last
    /// recovered): how many syncs to disk writing took.
    var commits: Int { current?.database.commits ?? 0 }

    /// Lets the file in use grow by at most `pages` more pages on this connection (`PRAGMA
    /// max_page_count`): past them a write fails as on a full disk. For tests.
    func limitGrowth(toPages pages: Int) throws(EventReportError) {
        try use { (database) throws(SQLiteError) in
            let count = try database.prepare("PRAGMA page_count")
            let now = try count.step() ? count.int64(0) : 0
            try database.execute("PRAGMA max_page_count = \(now + Int64(max(0, pages)))")
        }
    }

    /// Up to `limit` of the oldest events with a sequence number at most `through`.
    func oldest(limit: Int, through: Int64) throws(EventReportError) -> [Event] {
        try use { (database) throws(SQLiteError) -> [Event] in
            let query = try database.prepare(
                "SELECT seq, id, recorded, body FROM events WHERE seq <= ? ORDER BY seq LIMIT ?")
            try query.bind(1, through)
            try query.bind(2, Int64(max(0, limit)))
            var events: [Event] = []
            while try query.step() {
                events.append(
                    Event(sequence: query.int64(0), id: query.text(1), recorded: query.double(2), body: query.bytes(3)))
            }
            return events
        }
    }

    /// Removes delivered events, by id: a recovery in between renumbers events, never their ids.
    func remove(ids: [String]) throws(EventReportError) {
        guard !ids.isEmpty else { return }
        try use { (database) throws(SQLiteError) in
            try database.transaction { () throws(SQLiteError) in
                let delete = try database.prepare("DELETE FROM events WHERE id = ?")
                for id in ids {
                    try delete.bind(1, id)
                    try delete.run()
                    delete.reset()
                }
            }
        }
    }

    /// Moves one event the collector refused on its own (HTTP 413, too large) out of those
    /// waiting into the `refused` table of the spool, where it is kept but not sent again; returns
    /// how many older refused events the table's bound (the spool's count bound) dropped, counted
    /// as dropped. By id, as ``remove(ids:)``.
    @discardableResult
    func setAsideRefused(id: String) throws(EventReportError) -> Int {
        try use { (database) throws(SQLiteError) -> Int in
            try database.transaction { () throws(SQLiteError) -> Int in
                try Self.createRefusedTable(database)
                let move = try database.prepare(
                    "INSERT INTO refused (id, recorded, body) SELECT id, recorded, body FROM events WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM refused WHERE id = ?1)"
                )
                try move.bind(1, id)
                try move.run()
                let delete = try database.prepare("DELETE FROM events WHERE id = ?")
                try delete.bind(1, id)
                try delete.run()
                let bound = try database.prepare(
                    "DELETE FROM refused WHERE seq IN (SELECT seq FROM refused ORDER BY seq DESC LIMIT -1 OFFSET ?)")
                try bound.bind(1, Int64(limits.maximumEvents))
                try bound.run()
                let dropped = database.changes
                try Self.addToCounter(database, "dropped", dropped)
                return dropped
            }
        }
    }

    /// How many events with a sequence number at most `through` are stored.
    func count(through: Int64) throws(EventReportError) -> Int {
        try use { (database) throws(SQLiteError) -> Int in
            let query = try database.prepare("SELECT COUNT(*) FROM events WHERE seq <= ?")
            try query.bind(1, through)
            return try query.step() ? Int(clamping: max(0, query.int64(0))) : 0
        }
    }

    /// The newest sequence number stored, 0 when empty.
    func newestSequence() throws(EventReportError) -> Int64 {
        try use { (database) throws(SQLiteError) -> Int64 in
            let query = try database.prepare("SELECT COALESCE(MAX(seq), 0) FROM events")
            return try query.step() ? max(0, query.int64(0)) : 0
        }
    }

    /// Applies the age bound now (the count bound holds after every insert).
    @discardableResult
    func expire(now: Double) throws(EventReportError) -> Int {
        try use { (database) throws(SQLiteError) -> Int in
            try database.transaction { () throws(SQLiteError) -> Int in try applyLimits(database, now: now) }
        }
    }

    /// Checks the file fully (recovering from what it finds), then moves what the write-ahead
    /// log holds into the database file and empties the log, so the file alone holds every
    /// event (for a clean end; the log is as durable). Never waits for another process using
    /// the spool: then only what it can copy now is copied.
    func checkpoint() throws(EventReportError) {
        try use(fullCheck: true) { (database) throws(SQLiteError) in
            database.setBusyTimeout(milliseconds: 0)
            defer { database.setBusyTimeout(milliseconds: Self.busyTimeoutMilliseconds) }
            try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    /// Saves the result of a send, for ``status(now:)``.
    func saveLastSend(_ result: SendResult) throws(EventReportError) {
        try use { (database) throws(SQLiteError) in
            let save = try database.prepare(
                "INSERT OR REPLACE INTO last_send (slot, at, delivered, failed, error) VALUES (1, ?, ?, ?, ?)")
            try save.bind(1, result.time)
            try save.bind(2, Int64(result.delivered))
            try save.bind(3, Int64(result.failed))
            try save.bind(4, result.error ?? "")
            try save.run()
        }
    }

    /// What is pending, what was dropped, what the bounds would drop and how the last send
    /// went. Drops nothing.
    func status(now: Double) throws(EventReportError) -> SpoolStatus {
        try use { (database) throws(SQLiteError) -> SpoolStatus in
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
            // Past the count bound: every event at or before the newest one beyond the bound.
            let beyond = try database.prepare(
                "SELECT COUNT(*) FROM events WHERE recorded < ? "
                    + "OR seq <= (SELECT seq FROM events ORDER BY seq DESC LIMIT 1 OFFSET ?)")
            try beyond.bind(1, now - limits.maximumAge.seconds)
            try beyond.bind(2, Int64(limits.maximumEvents))
            let beyondBounds = try beyond.step() ? Int(clamping: max(0, beyond.int64(0))) : 0
            return SpoolStatus(
                pending: pending, oldestPendingAge: age, dropped: try Self.counter(database, "dropped"),
                lastSend: lastSend,
                setAside: setAside, beyondBounds: beyondBounds, refused: try Self.refusedCount(database))
        }
    }

    // MARK: - Inside

    /// Runs `body` on the database in use, turning SQLite's errors into the spool's. The file is
    /// checked first (fully when `fullCheck` or when the interval has passed) and recovered
    /// from when it changed; a failing call is checked too, then tried once more on the
    /// recovered spool.
    private func use<T>(fullCheck: Bool = false, _ body: (SQLiteDatabase) throws(SQLiteError) -> T)
        throws(EventReportError) -> T
    {
        let database = try databaseInUse(fullCheck: fullCheck)
        let failure: SQLiteError
        do {
            let result = try body(database)
            noteSize()
            return result
        } catch {
            failure = error
        }
        guard !failure.isFull, !failure.isBusy,
            let problem = inspect(full: true) ?? (failure.isCorruption ? .damaged(failure.description) : nil)
        else { throw Self.failure(failure, path: databasePath) }
        let recovered = try recover(from: problem)
        do {
            let result = try body(recovered)
            noteSize()
            return result
        } catch {
            throw Self.failure(error, path: databasePath)
        }
    }

    /// The spool's error for an SQLite failure on the file at `path`.
    private static func failure(_ error: SQLiteError, path: String) -> EventReportError {
        if error.isFull { return .spoolFull(path: path, reason: error.description) }
        if error.isBusy {
            return .spoolBusy(
                path: path,
                reason: "another process held its lock for more than \(busyTimeoutMilliseconds / 1000) s (\(error))")
        }
        return .spoolUnusable(path: path, reason: error.description)
    }

    /// The database to use now: the open one when its file is as it was, else the one a
    /// recovery opens.
    private func databaseInUse(fullCheck: Bool) throws(EventReportError) -> SQLiteDatabase {
        guard let current else { return try reopen() }
        if let problem = inspect(full: fullCheck || ContinuousClock.now >= nextFullCheck) {
            return try recover(from: problem)
        }
        return current.database
    }

    /// Whether the file in use is still the one at the spool's path, of the size and with the
    /// header it had; when `full`, also whether the directory still resolves to the same place
    /// and the file passes `quick_check`, read from disk by a second connection.
    private func inspect(full: Bool) -> Problem? {
        guard let current else { return nil }
        switch SpoolFiles.lookUp(current.path) {
        case .missing:
            if case .missing = SpoolFiles.lookUp(current.directory) { return .replaced("its directory was removed") }
            return .replaced("its file was moved away or removed")
        case .file(_, let kind, _) where kind != .regular:
            return .replaced("\(kind) is at its path now")
        case .file(let identity, _, _) where identity != current.identity:
            return .replaced("another file is at its path now")
        case .file, .unknown:
            break
        }
        if current.database.fileHasMoved { return .replaced("its file was moved away or removed") }
        if let size = current.database.fileSize {
            if size < current.size { return .damaged("truncated from \(current.size) to \(size) bytes") }
            if size >= Int64(Self.header.count), current.database.fileHeader(count: Self.header.count) != Self.header {
                return .damaged("its header was overwritten")
            }
        }
        guard full else { return nil }
        let started = ContinuousClock.now
        defer {
            let took = ContinuousClock.now - started
            nextFullCheck = .now + max(checkInterval, took * 20)
        }
        guard let resolved = SpoolFiles.resolve(directory) else { return .replaced("its directory was removed") }
        if resolved != current.directory { return .replaced("its directory leads elsewhere now") }
        if let failure = Self.quickCheck(current.path) { return .damaged("the integrity check failed: \(failure)") }
        return nil
    }

    /// What `PRAGMA quick_check` finds wrong with the file at `path`, read by a connection of
    /// its own (so from disk, not from the open connection's cache); nil when it finds nothing
    /// or cannot run (a lock held elsewhere, say).
    private static func quickCheck(_ path: String) -> String? {
        do throws(SQLiteError) {
            let checker = try SQLiteDatabase(path: path, readOnly: true)
            defer { checker.close() }
            checker.setBusyTimeout(milliseconds: 1000)
            let check = try checker.prepare("PRAGMA quick_check(1)")
            guard try check.step() else { return nil }
            let answer = check.text(0)
            return answer == "ok" ? nil : answer.split(whereSeparator: \.isNewline).joined(separator: "; ")
        } catch {
            return error.isCorruption ? error.description : nil
        }
    }

    /// Keeps the largest size the file in use was seen with.
    private func noteSize() {
        guard let size = current?.database.fileSize else { return }
        if size > current?.size ?? .max { current?.size = size }
    }

    /// Goes on in a fresh spool at the configured path: copies the undelivered events the open
    /// connection can still read to a rescue file in the (re-made) directory, lets the old file
    /// go (one moved away gets its log written into it, so it keeps its rows; a damaged one is
    /// set aside with its log), opens the spool at the path and takes the rescue in.
    private func recover(from problem: Problem) throws(EventReportError) -> SQLiteDatabase {
        guard let old = current else { return try reopen() }
        try Self.prepareDirectory(directory)
        let resolved = try Self.resolve(directory)
        let rescue = resolved + "/" + Self.rescuePrefix + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let (carried, complete) = try Self.writeRescue(from: old.database, to: rescue, shown: databasePath)
        switch problem {
        case .replaced: try? old.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        case .damaged: old.database.keepLogOnClose()
        }
        current = nil
        old.database.close()
        let path = resolved + "/" + Self.fileName
        var aside: [String] = []
        switch problem {
        case .damaged:
            if case .file(let identity, .regular, _) = SpoolFiles.lookUp(path), identity == old.identity {
                aside = try SpoolFiles.moveAside(path, label: "damaged")
            }
        case .replaced:
            aside = try Self.clearOrphanedSidecars(of: path)
        }
        let (file, openedAside) = try Self.openFile(in: directory)
        current = file
        nextFullCheck = .now + checkInterval
        let taken = try Self.takeRescue(rescue, into: file.database)
        let cause: SpoolRecovery.Cause
        switch problem {
        case .replaced(let detail): cause = .replaced(detail)
        case .damaged(let detail): cause = .damaged(detail)
        }
        recoveries.append(
            SpoolRecovery(
                cause: cause, spool: databasePath, carried: taken?.copied ?? carried,
                complete: complete && taken != nil,
                setAside: Self.shown(aside, resolved: resolved, as: directory) + openedAside))
        takeOverRescues(in: file)
        return file.database
    }

    /// Opens the spool again after a recovery that could not finish.
    private func reopen() throws(EventReportError) -> SQLiteDatabase {
        let (file, aside) = try Self.openFile(in: directory)
        current = file
        nextFullCheck = .now + checkInterval
        if !aside.isEmpty {
            recoveries.append(
                SpoolRecovery(
                    cause: .damaged("found damaged when opened again"), spool: databasePath, carried: 0,
                    complete: false,
                    setAside: aside))
        }
        takeOverRescues(in: file)
        return file.database
    }

    /// Takes in the rescue files that recoveries cut short left in the spool directory: this
    /// process's, and those of processes no longer running.
    private func takeOverRescues(in file: OpenFile) {
        for name in SpoolFiles.names(in: file.directory)
        where name.hasPrefix(Self.rescuePrefix) && !name.hasSuffix("-journal") {
            let owner = name.dropFirst(Self.rescuePrefix.count).prefix { $0 != "-" }
            guard let pid = Int32(owner), pid > 0 else { continue }
            if pid != getpid(), kill(pid, 0) == 0 || errno != ESRCH { continue }
            let path = file.directory + "/" + name
            guard let taken = try? Self.takeRescue(path, into: file.database) else { continue }
            recoveries.append(
                SpoolRecovery(
                    cause: .rescued(directory + "/" + name), spool: databasePath, carried: taken.copied,
                    complete: taken.complete))
        }
    }

    /// Drops the oldest events past the count bound and those older than the age bound; counts
    /// them in the `dropped` counter and returns how many.
    private func applyLimits(_ database: SQLiteDatabase, now: Double) throws(SQLiteError) -> Int {
        let byAge = try database.prepare("DELETE FROM events WHERE recorded < ?")
        try byAge.bind(1, now - limits.maximumAge.seconds)
        try byAge.run()
        var dropped = database.changes
        let byCount = try database.prepare(
            "DELETE FROM events WHERE seq IN (SELECT seq FROM events ORDER BY seq DESC LIMIT -1 OFFSET ?)")
        try byCount.bind(1, Int64(limits.maximumEvents))
        try byCount.run()
        dropped += database.changes
        try Self.addToCounter(database, "dropped", dropped)
        return dropped
    }

    private static func addToCounter(_ database: SQLiteDatabase, _ name: String, _ amount: Int) throws(SQLiteError) {
        guard amount > 0 else { return }
        let add = try database.prepare(
            "INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = value + excluded.value"
        )
        try add.bind(1, name)
        try add.bind(2, Int64(amount))
        try add.run()
    }

    /// The events kept aside as refused by the collector, 0 when none ever were.
    private static func refusedCount(_ database: SQLiteDatabase) throws(SQLiteError) -> Int {
        guard try hasRefusedTable(database) else { return 0 }
        let count = try database.prepare("SELECT COUNT(*) FROM refused")
        return try count.step() ? Int(clamping: max(0, count.int64(0))) : 0
    }

    private static func hasRefusedTable(_ database: SQLiteDatabase) throws(SQLiteError) -> Bool {
        let table = try database.prepare("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'refused'")
        return try table.step() && table.int64(0) > 0
    }

    private static func createRefusedTable(_ database: SQLiteDatabase) throws(SQLiteError) {
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS refused (
                seq INTEGER PRIMARY KEY, id TEXT NOT NULL, recorded REAL NOT NULL, body BLOB NOT NULL)
            """)
    }

    private static func counter(_ database: SQLiteDatabase, _ name: String) throws(SQLiteError) -> Int {
        let query = try database.prepare("SELECT value FROM counters WHERE name = ?")
        try query.bind(1, name)
        return try query.step() ? Int(clamping: max(0, query.int64(0))) : 0
    }

    // MARK: - Opening

    /// Opens the spool in `directory`: the directory made when missing, its links resolved,
    /// the files checked to be regular or absent, a damaged database set aside. Returns the
    /// open file and the names set aside (as under `directory`).
    private static func openFile(in directory: String) throws(EventReportError) -> (OpenFile, [String]) {
        try prepareDirectory(directory)
        let resolved = try resolve(directory)
        let path = resolved + "/" + fileName
        let shown = directory + "/" + fileName
        for suffix in [""] + SpoolFiles.sidecarSuffixes {
            try checkRegularOrAbsent(path + suffix, shown: shown + suffix)
        }
        var aside: [String] = []
        let database: SQLiteDatabase
        do {
            database = try open(path)
        } catch let error where error.isCorruption {
            aside = try SpoolFiles.moveAside(path, label: "damaged")
            do {
                database = try open(path)
            } catch {
                throw failure(error, path: shown)
            }
        } catch {
            throw failure(error, path: shown)
        }
        guard case .file(let identity, .regular, _) = SpoolFiles.lookUp(path), !database.fileHasMoved else {
            throw .spoolUnusable(path: shown, reason: "the file was moved or replaced while it was opened")
        }
        let file = OpenFile(
            database: database, directory: resolved, path: path, identity: identity, size: database.fileSize ?? 0)
        return (file, Self.shown(aside, resolved: resolved, as: directory))
    }

    /// Opens the database, sets WAL and synchronous commits, checks it is whole and ours, and
    /// creates the tables.
    private static func open(_ path: String) throws(SQLiteError) -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: path)
        database.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        try setWriteAheadLog(database)
        try database.execute("PRAGMA synchronous = FULL")
        // Rows reach the file itself (where its size, header and quick_check see them) once
        // the log is checkpointed. One commit a burst writes the log several times slower than
        // one an event did, so it is checkpointed after 100 pages (400 KB) rather than
        // SQLite's 1,000, so that rows reach the file about as soon as they did.
        try database.execute("PRAGMA wal_autocheckpoint = \(autocheckpointPages)")
        do {
            // Its own scope: a statement left stepping holds a read transaction, which a write
            // transaction cannot wait its turn from (SQLite answers "locked" at once).
            let check = try database.prepare("PRAGMA quick_check")
            guard try check.step(), check.text(0) == "ok" else {
                throw SQLiteError.corruption("the integrity check failed")
            }
        }
        // Reading the schema takes no write lock: a spool in use by another process opens at once.
        guard try schema(of: database) != schemaVersion else { return database }
        // A new file: created in a write transaction (which waits for the busy timeout, where
        // a write begun in a read would fail at once), and checked again inside it.
        try database.transaction { () throws(SQLiteError) in
            guard try schema(of: database) != schemaVersion else { return }
            try createSchema(database)
        }
        return database
    }

    /// Puts the database in WAL mode. Switching a new file needs every other connection out of
    /// it, and SQLite answers "locked" at once rather than wait (a second process creating the
    /// same spool): tried again until the busy timeout.
    private static func setWriteAheadLog(_ database: SQLiteDatabase) throws(SQLiteError) {
        let deadline = ContinuousClock.now + .milliseconds(Int(busyTimeoutMilliseconds))
        while true {
            do {
                return try database.execute("PRAGMA journal_mode = WAL")
            } catch let error where error.isBusy && ContinuousClock.now < deadline {
                usleep(10_000)
            }
        }
    }

    /// The schema version of a cast-scan spool, 0 for an empty file.
    ///
    /// - Throws: a corruption error for a database that is not a cast-scan spool.
    private static func schema(of database: SQLiteDatabase) throws(SQLiteError) -> Int64 {
        let version = try database.prepare("PRAGMA user_version")
        let found = try version.step() ? version.int64(0) : 0
        let tables = try database.prepare("SELECT COUNT(*) FROM sqlite_master")
        let tableCount = try tables.step() ? tables.int64(0) : 0
        guard found == schemaVersion || (found == 0 && tableCount == 0) else {
            throw SQLiteError.corruption("not a cast-scan event spool (schema \(found))")
        }
        return found
    }

    private static func createSchema(_ database: SQLiteDatabase) throws(SQLiteError) {
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS events (
                seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
                recorded REAL NOT NULL, body BLOB NOT NULL);
            CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS last_send (
                slot INTEGER PRIMARY KEY, at REAL NOT NULL, delivered INTEGER NOT NULL,
                failed INTEGER NOT NULL, error TEXT NOT NULL);
            PRAGMA user_version = \(schemaVersion);
            """)
    }

    /// Creates the spool directory when missing (mode 0700, with missing parents); a directory
    /// reached through links is fine; refuses a path that is not a directory.
    private static func prepareDirectory(_ directory: String) throws(EventReportError) {
        var info = stat()
        if PathSyscall.lstat(directory, &info) == 0, FileKind(mode: info.st_mode) != .directory {
            // A link to a directory is followed; anything else is left alone.
            var target = stat()
            guard FileKind(mode: info.st_mode) == .symbolicLink, PathSyscall.stat(directory, &target) == 0,
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

    /// The spool directory with its links resolved.
    private static func resolve(_ directory: String) throws(EventReportError) -> String {
        guard let resolved = SpoolFiles.resolve(directory) else {
            throw .spoolUnusable(path: directory, reason: "cannot resolve the directory: \(systemErrorMessage(errno))")
        }
        return resolved
    }

    /// Refuses a database file (or one of its sidecar files) that exists and is not a regular
    /// file: SQLite would write into it.
    private static func checkRegularOrAbsent(_ path: String, shown: String) throws(EventReportError) {
        guard case .file(_, let kind, _) = SpoolFiles.lookUp(path), kind != .regular else { return }
        throw .spoolFileNotRegular(path: shown, kind: "\(kind)")
    }

    /// `paths` in `resolved` named as under `directory`, the spool directory as configured.
    private static func shown(_ paths: [String], resolved: String, as directory: String) -> [String] {
        paths.map { $0.hasPrefix(resolved + "/") ? directory + "/" + $0.dropFirst(resolved.count + 1) : $0 }
    }

    // MARK: - Recovering

    /// Sidecar files left at `path` by a database moved away from it: an empty log and its
    /// index are removed (the log was written into the file moved away); a log or journal
    /// that still holds something is set aside. Nothing is done while a database is at `path`:
    /// its sidecars are its own.
    private static func clearOrphanedSidecars(of path: String) throws(EventReportError) -> [String] {
        guard case .missing = SpoolFiles.lookUp(path) else { return [] }
        var holdsSomething = false
        for suffix in ["-wal", "-journal"] {
            if case .file(_, _, let size) = SpoolFiles.lookUp(path + suffix), size > 0 { holdsSomething = true }
        }
        if holdsSomething { return try SpoolFiles.moveAside(path, label: "orphaned") }
        for suffix in SpoolFiles.sidecarSuffixes {
            if case .file(_, .regular, _) = SpoolFiles.lookUp(path + suffix) { _ = PathSyscall.unlink(path + suffix) }
        }
        return []
    }

    /// Creates the rescue file `path` (new, mode 0600) and copies into it every event `source`
    /// can still read, with its counters and last send; returns how many and whether all could
    /// be read. On failure the rescue file is removed.
    private static func writeRescue(
        from source: SQLiteDatabase, to path: String, shown: String
    ) throws(EventReportError) -> (copied: Int, complete: Bool) {
        let descriptor = PathSyscall.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .spoolUnusable(path: shown, reason: "cannot create a rescue file: \(systemErrorMessage(errno))")
        }
        close(descriptor)
        do throws(SQLiteError) {
            let rescue = try SQLiteDatabase(path: path)
            defer { rescue.close() }
            try rescue.execute("PRAGMA synchronous = FULL")
            try createSchema(rescue)
            let result = try rescue.transaction { () throws(SQLiteError) in try copyEvents(from: source, into: rescue) }
            SpoolFiles.syncDirectory(containing: path)
            return result
        } catch {
            _ = PathSyscall.unlink(path)
            _ = PathSyscall.unlink(path + "-journal")
            if error.isFull { throw .spoolFull(path: shown, reason: error.description) }
            throw .spoolUnusable(path: shown, reason: "cannot write a rescue file: \(error.description)")
        }
    }

    /// Copies the events of the rescue file at `path` into `database` (the ones it does not
    /// hold yet, by id), then removes the rescue file; nil when it cannot be read (it stays).
    private static func takeRescue(
        _ path: String, into database: SQLiteDatabase
    ) throws(EventReportError) -> (copied: Int, complete: Bool)? {
        guard case .file(_, .regular, _) = SpoolFiles.lookUp(path) else { return nil }
        do throws(SQLiteError) {
            let result: (copied: Int, complete: Bool)
            do {
                // Read-write, so a journal a killed process left is rolled back.
                let rescue = try SQLiteDatabase(path: path)
                defer { rescue.close() }
                result = try database.transaction { () throws(SQLiteError) in
                    try copyEvents(from: rescue, into: database)
                }
            }
            _ = PathSyscall.unlink(path)
            _ = PathSyscall.unlink(path + "-journal")
            SpoolFiles.syncDirectory(containing: path)
            return result
        } catch {
            if error.isFull { throw .spoolFull(path: path, reason: error.description) }
            return nil
        }
    }

    /// Copies into `target` (inside its transaction), oldest first, every event `source` can
    /// read that `target` does not hold (by id), with the events kept aside as refused, adds
    /// `source`'s drop counter and takes its last send when `target` has none. Rows `source`
    /// cannot read are stepped over (further sequence numbers are tried), so a damaged page loses
    /// only its own rows. Returns how many
    /// events were copied and whether every one could be read. Only `target`'s errors throw.
    static func copyEvents(from source: SQLiteDatabase, into target: SQLiteDatabase) throws(SQLiteError) -> (
        copied: Int, complete: Bool
    ) {
        let insert = try target.prepare("INSERT OR IGNORE INTO events (id, recorded, body) VALUES (?, ?, ?)")
        var copied = 0
        var complete = true
        var after = Int64.min
        var resumedAt: Int64?
        rows: for _ in 0..<1_000_000 {
            guard
                let query = try? source.prepare(
                    "SELECT seq, id, recorded, body FROM events WHERE seq > ? ORDER BY seq"),
                (try? query.bind(1, after)) != nil
            else {
                complete = false
                break
            }
            while true {
                let row: Event?
                do {
                    row =
                        try query.step()
                        ? Event(
                            sequence: query.int64(0), id: query.text(1), recorded: query.double(2), body: query.bytes(3)
                        ) : nil
                } catch {
                    // A row or page that cannot be read: on from the next one that can.
                    complete = false
                    guard let next = nextReadable(in: source, after: after) else { break rows }
                    after = resumedAt == next - 1 ? next : next - 1
                    resumedAt = after
                    continue rows
                }
                guard let row else { break rows }
                after = row.sequence
                try insert.bind(1, row.id)
                try insert.bind(2, row.recorded)
                try insert.bind(3, row.body)
                try insert.run()
                copied += target.changes
                insert.reset()
            }
        }
        if (try? hasRefusedTable(source)) == true,
            let refused = try? source.prepare("SELECT id, recorded, body FROM refused ORDER BY seq")
        {
            // The events the collector refused alone stay kept aside, not sent again.
            try createRefusedTable(target)
            let keep = try target.prepare(
                "INSERT INTO refused (id, recorded, body) SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM refused WHERE id = ?)"
            )
            while (try? refused.step()) == true {
                try keep.bind(1, refused.text(0))
                try keep.bind(2, refused.double(1))
                try keep.bind(3, refused.bytes(2))
                try keep.bind(4, refused.text(0))
                try keep.run()
                keep.reset()
            }
        }
        if let dropped = try? counter(source, "dropped") { try addToCounter(target, "dropped", dropped) }
        if let last = try? source.prepare("SELECT at, delivered, failed, error FROM last_send WHERE slot = 1"),
            (try? last.step()) == true
        {
            let save = try target.prepare(
                "INSERT OR IGNORE INTO last_send (slot, at, delivered, failed, error) VALUES (1, ?, ?, ?, ?)")
            try save.bind(1, last.double(0))
            try save.bind(2, last.int64(1))
            try save.bind(3, last.int64(2))
            try save.bind(4, last.text(3))
            try save.run()
        }
        return (copied, complete)
    }

    /// The first sequence number past `after` whose row `source` can find, trying ever
    /// further (1, 2, 4... past it); nil when there is none or none can be reached.
    private static func nextReadable(in source: SQLiteDatabase, after: Int64) -> Int64? {
        var distance: Int64 = 1
        while true {
            let (from, overflow) = after.addingReportingOverflow(distance)
            guard !overflow else { return nil }
            if let query = try? source.prepare("SELECT seq FROM events WHERE seq >= ? ORDER BY seq LIMIT 1"),
                (try? query.bind(1, from)) != nil
            {
                do {
                    return try query.step() ? query.int64(0) : nil
                } catch {
                    // Not reachable from here: further on.
                }
            }
            let (next, tooFar) = distance.multipliedReportingOverflow(by: 2)
            guard !tooFar else { return nil }
            distance = next
        }
    }
}
