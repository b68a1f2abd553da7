import CastDiscovery
internal import CSQLite

/// One connection to an SQLite database file: a thin wrapper per call, every result code checked.
final class SQLiteDatabase {
    private let connection: OpaquePointer
    private var closed = false
    /// Counted by SQLite's commit hook, which is given its address.
    private let commitCounter = CommitCounter()

    /// Where the commit hook counts: a class, so that its address stays the same.
    private final class CommitCounter {
        var count = 0
    }

    /// Opens (or creates) the database at `path` for reading and writing, or only reads it
    /// when `readOnly`. A symbolic link anywhere in `path` is refused (`SQLITE_OPEN_NOFOLLOW`):
    /// give a path with its directories resolved. The connection is used from one thread at a
    /// time.
    init(path: String, readOnly: Bool = false) throws(SQLiteError) {
        var handle: OpaquePointer?
        let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let flags = access | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX
        let code = RawPath.withCString(path) { sqlite3_open_v2($0, &handle, flags, nil) }
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError(code: code, connection: handle)
            sqlite3_close_v2(handle)
            throw error
        }
        connection = handle
        sqlite3_extended_result_codes(handle, 0)
        _ = sqlite3_commit_hook(
            handle,
            { context in
                guard let context else { return 0 }
                Unmanaged<CommitCounter>.fromOpaque(context).takeUnretainedValue().count += 1
                return 0
            }, Unmanaged.passUnretained(commitCounter).toOpaque())
    }

    deinit {
        if !closed { sqlite3_close_v2(connection) }
    }

    /// Closes the connection now (its statements finish it when they go); nothing may be
    /// called on it after.
    func close() {
        guard !closed else { return }
        closed = true
        sqlite3_close_v2(connection)
    }

    /// Runs SQL that returns no rows (one or more statements).
    func execute(_ sql: String) throws(SQLiteError) {
        let code = sqlite3_exec(connection, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: connection) }
    }

    /// Compiles one statement.
    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw SQLiteError(code: code, connection: connection) }
        return SQLiteStatement(statement, connection: connection)
    }

    /// The transactions committed on this connection (each one a sync to disk with
    /// synchronous commits), a statement outside a transaction counting as one.
    var commits: Int {
        commitCounter.count
    }

    /// The rows the last insert, update or delete changed.
    var changes: Int {
        Int(sqlite3_changes64(connection))
    }

    /// Whether the database file this connection has open is no longer at its path (renamed,
    /// removed, or another file put there), as SQLite sees it.
    var fileHasMoved: Bool {
        var moved: Int32 = 0
        guard sqlite3_file_control(connection, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK else {
            return false
        }
        return moved != 0
    }

    /// The size of the database file this connection has open (not of its log), in bytes; nil
    /// when it cannot be read.
    var fileSize: Int64? {
        guard let file = mainFile, let size = file.pointee.pMethods?.pointee.xFileSize else { return nil }
        var bytes: sqlite3_int64 = 0
        return size(file, &bytes) == SQLITE_OK ? Int64(bytes) : nil
    }

    /// The first `count` bytes of the database file this connection has open, as they are on
    /// disk (not through the log or the cache); fewer when the file is shorter.
    func fileHeader(count: Int) -> [UInt8] {
        guard count > 0, let file = mainFile, let read = file.pointee.pMethods?.pointee.xRead,
            let size = fileSize
        else { return [] }
        let available = Int(clamping: max(0, min(Int64(count), size)))
        guard available > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: available)
        let code = bytes.withUnsafeMutableBytes { read(file, $0.baseAddress, Int32(available), 0) }
        return code == SQLITE_OK ? bytes : []
    }

    /// Closing this connection leaves its write-ahead log as it is: nothing is written into the
    /// database file and the log is not deleted (for a file found damaged, set aside whole).
    func keepLogOnClose() {
        _ = cast_sqlite_no_checkpoint_on_close(connection)
    }

    /// The database file's own handle, through which SQLite reads it (reading through it keeps
    /// SQLite's locks: a second descriptor closed would drop them).
    private var mainFile: UnsafeMutablePointer<sqlite3_file>? {
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(connection, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK else {
            return nil
        }
        return file
    }

    /// Sets how long a statement waits for another connection's lock before failing.
    func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(connection, milliseconds)
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}
