internal import CSQLite

/// A compiled statement: bind, step, read columns.
final class SQLiteStatement {
    private let statement: OpaquePointer
    private let connection: OpaquePointer

    init(_ statement: OpaquePointer, connection: OpaquePointer) {
        self.statement = statement
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(statement)
    }

    func bind(_ index: Int32, _ value: Int64) throws(SQLiteError) {
        try check(sqlite3_bind_int64(statement, index, value))
    }

    func bind(_ index: Int32, _ value: Double) throws(SQLiteError) {
        try check(sqlite3_bind_double(statement, index, value))
    }

    func bind(_ index: Int32, _ value: String) throws(SQLiteError) {
        let utf8 = Array(value.utf8)
        try check(
            utf8.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    cast_sqlite_bind_text(statement, index, chars.baseAddress, Int32(chars.count))
                }
            })
    }

    func bind(_ index: Int32, _ bytes: [UInt8]) throws(SQLiteError) {
        try check(
            bytes.withUnsafeBytes { buffer in
                cast_sqlite_bind_blob(statement, index, buffer.baseAddress, Int32(clamping: buffer.count))
            })
    }

    /// Advances to the next row: true when there is one, false when the statement is done.
    func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(statement)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteError(code: code, connection: connection)
        }
    }

    /// Runs the statement to its end, for statements that return no rows.
    func run() throws(SQLiteError) {
        while try step() {}
    }

    /// Clears the bindings and rewinds, to run the statement again.
    func reset() {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(statement, column)
    }

    func double(_ column: Int32) -> Double {
        sqlite3_column_double(statement, column)
    }

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(statement, column) == SQLITE_NULL
    }

    func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: max(0, count)), as: UTF8.self)
    }

    func bytes(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let pointer = sqlite3_column_blob(statement, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    private func check(_ code: Int32) throws(SQLiteError) {
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: connection) }
    }
}
