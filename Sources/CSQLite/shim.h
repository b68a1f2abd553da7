// SQLite (Debian's libsqlite3-dev) for the event spool. SQLITE_TRANSIENT is a cast macro
// Swift cannot import: binding goes through these wrappers, which copy the bytes.
#include <sqlite3.h>

static inline int cast_sqlite_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int count) {
    return sqlite3_bind_blob(statement, index, bytes, count, SQLITE_TRANSIENT);
}

static inline int cast_sqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int count) {
    return sqlite3_bind_text(statement, index, text, count, SQLITE_TRANSIENT);
}

// sqlite3_db_config is variadic: closing this connection leaves the write-ahead log as it is
// (no checkpoint into the database file, the log not deleted), for a file found damaged.
static inline int cast_sqlite_no_checkpoint_on_close(sqlite3 *connection) {
    return sqlite3_db_config(connection, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
