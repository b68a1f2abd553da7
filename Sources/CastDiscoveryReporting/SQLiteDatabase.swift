internal import CSQLite

/// One connection to an SQLite database file: a thin wrapper per call, every result code checked.
final class SQLiteDatabase {
    private let connection: OpaquePointer

    /// Opens (or creates) the database at `path` for reading and writing. A symbolic link is
    /// refused (`SQLITE_OPEN_NOFOLLOW`); the connection is used from one thread at a time.
    init(path: String) throws(SQLiteError) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError(code: code, connection: handle)
            sqlite3_close_v2(handle)
            throw error
        }
        connection = handle
        sqlite3_extended_result_codes(handle, 0)
    }

    deinit {
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

    /// The rows the last insert, update or delete changed.
    var changes: Int {
        Int(sqlite3_changes64(connection))
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
