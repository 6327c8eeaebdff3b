#ifndef NOTIBASE_CSQLITE_SHIM_H
#define NOTIBASE_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro Swift cannot import: SQLite copies the bound bytes.
static inline int notibase_sqlite3_bind_text_transient(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

static inline int notibase_sqlite3_bind_blob_transient(sqlite3_stmt *statement, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(statement, index, bytes, length, SQLITE_TRANSIENT);
}
/// sqlite3_config is variadic. Turns off SQLite's memory statistics (a global mutex taken on every
/// allocation); must run before the first connection opens.
static inline int notibase_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
