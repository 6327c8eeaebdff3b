import CSQLite
import NotibaseDomain
package import NotibaseStore

/// One SQLite database connection and its cache of prepared statements.
///
/// Not `Sendable`: each is owned by one executor and never leaves it (the ``SQLiteStore`` actor's,
/// or the ``Checkpointer``'s thread, which opens its own). Every C call goes through
/// ``check(_:_:)``, the one place that turns a result code into a ``StorageError``.
package final class SQLiteConnection {
    private let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]
    /// When set (tests), each statement's plan is recorded as it is first prepared.
    package var plans: QueryPlans?

    /// Process-wide SQLite settings, applied once before the first connection.
    private static let configured: Bool = {
        notibase_sqlite3_disable_memory_statistics() == SQLITE_OK
    }()

    /// Opens (creating if needed) the database at `path`, in WAL mode. A statement that finds the
    /// database locked by another process waits up to `busyTimeout` milliseconds, then fails as
    /// unavailable.
    package init(path: String, busyTimeout: Int32 = 5_000) throws {
        _ = Self.configured
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &opened, flags, nil)
        guard let opened, status == SQLITE_OK else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let opened { sqlite3_close_v2(opened) }
            throw StorageError.sqlite(code: status, message: "cannot open \(path): \(message)")
        }
        handle = opened
        sqlite3_busy_timeout(handle, busyTimeout)
        try execute("""
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = NORMAL;
            PRAGMA foreign_keys = ON;
            PRAGMA temp_store = MEMORY;
            PRAGMA cache_size = -65536;
            PRAGMA wal_autocheckpoint = 10000;
            """)
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that take no parameters and return no rows.
    package func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &error)
        if status != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(error)
            throw StorageError.sqlite(code: status, message: message)
        }
    }

    /// The cached prepared statement for `sql`, reset and with its bindings cleared.
    package func statement(_ sql: String) throws -> SQLiteStatement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        if let plans, QueryPlans.isQuery(sql) { plans.record(sql: sql, plan: try queryPlan(sql)) }
        var prepared: OpaquePointer?
        try check(sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil), sql)
        guard let prepared else { throw StorageError.sqlite(code: SQLITE_MISUSE, message: "empty statement: \(sql)") }
        let statement = SQLiteStatement(handle: prepared, connection: self)
        statements[sql] = statement
        return statement
    }

    /// SQLite's plan for `sql` (`EXPLAIN QUERY PLAN`), a line per step.
    package func queryPlan(_ sql: String) throws -> String {
        var prepared: OpaquePointer?
        try check(sqlite3_prepare_v2(handle, "EXPLAIN QUERY PLAN " + sql, -1, &prepared, nil), sql)
        defer { sqlite3_finalize(prepared) }
        var lines: [String] = []
        while sqlite3_step(prepared) == SQLITE_ROW {
            lines.append(sqlite3_column_text(prepared, 3).map { String(cString: $0) } ?? "")
        }
        return lines.joined(separator: "\n")
    }

    /// Runs `sql` with `values` and returns the number of rows it changed.
    @discardableResult
    package func run(_ sql: String, _ values: [SQLParameter] = []) throws -> Int {
        let statement = try self.statement(sql)
        try statement.bind(values)
        while try statement.step() {}
        return Int(sqlite3_changes(handle))
    }

    package var lastInsertRowID: Int { Int(sqlite3_last_insert_rowid(handle)) }

    /// Runs a query and maps every row.
    package func query<Row>(_ sql: String, _ values: [SQLParameter] = [], _ map: (SQLiteStatement) throws -> Row) throws -> [Row] {
        let statement = try self.statement(sql)
        try statement.bind(values)
        var rows: [Row] = []
        while try statement.step() { rows.append(try map(statement)) }
        return rows
    }

    /// Runs a query and hands each row to `body` as it comes, keeping none.
    package func each(_ sql: String, _ values: [SQLParameter] = [], _ body: (SQLiteStatement) throws -> Void) throws {
        let statement = try self.statement(sql)
        try statement.bind(values)
        while try statement.step() { try body(statement) }
    }

    /// The first row of a query, mapped, or nil.
    package func first<Row>(_ sql: String, _ values: [SQLParameter] = [], _ map: (SQLiteStatement) throws -> Row) throws -> Row? {
        let statement = try self.statement(sql)
        try statement.bind(values)
        defer { statement.reset() }
        return try statement.step() ? try map(statement) : nil
    }

    /// Runs `body` in one transaction (`BEGIN IMMEDIATE`), committing when it returns and rolling
    /// back when it throws.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        try run("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            _ = try? run("ROLLBACK")
            throw error
        }
    }

    /// The error funnel: throws a ``StorageError`` for any result other than OK, ROW and DONE.
    package func check(_ status: Int32, _ context: @autoclosure () -> String) throws {
        switch status {
        case SQLITE_OK, SQLITE_ROW, SQLITE_DONE: return
        default:
            let message = String(cString: sqlite3_errmsg(handle))
            throw StorageError.sqlite(code: status, message: "\(message) (in \(context().prefix(120)))")
        }
    }
}
