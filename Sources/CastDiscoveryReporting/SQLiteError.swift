internal import CSQLite

/// A failed SQLite call: its result code and SQLite's message.
struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The primary result code (`SQLITE_*`).
    var code: Int32
    /// SQLite's message for the failure.
    var message: String

    init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// The error of the last call on `connection`.
    init(code: Int32, connection: OpaquePointer?) {
        self.code = code & 0xFF
        message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
    }

    /// A file that is damaged or not ours, found by a check rather than by a call.
    static func corruption(_ message: String) -> SQLiteError {
        SQLiteError(code: SQLITE_CORRUPT, message: message)
    }

    /// Whether the file is damaged or is not a database: the spool is set aside.
    var isCorruption: Bool {
        code == SQLITE_CORRUPT || code == SQLITE_NOTADB
    }

    /// Whether another connection held a lock past the busy timeout.
    var isBusy: Bool {
        code == SQLITE_BUSY || code == SQLITE_LOCKED
    }

    /// Whether the disk or the file system refused to take more.
    var isFull: Bool {
        code == SQLITE_FULL
    }

    var description: String { "\(message) (SQLite \(code))" }
}
