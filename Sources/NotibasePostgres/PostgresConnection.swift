import CPostgres
import Foundation
package import NotibaseDomain
package import NotibaseStore

/// One PostgreSQL connection (libpq) and its prepared statements.
///
/// Not `Sendable`: a ``PostgresPool`` lane owns it and uses it from its own thread only. Every
/// result goes through ``check(_:_:)``, the one place that turns libpq's status and SQLSTATE into
/// a ``StorageError``. Parameters and results travel as text.
package final class PostgresConnection {
    private var handle: OpaquePointer?
    private let url: String
    /// Prepared statements by their SQL; cleared when the connection is re-established.
    private var prepared: [String: String] = [:]
    /// When set (tests), each statement's plan is recorded as it is first run.
    package var plans: QueryPlans?

    /// Connects to `url` (`postgres://user:password@host:port/database?…`).
    package init(url: String) throws {
        self.url = url
        try connect()
    }

    deinit {
        if let handle { PQfinish(handle) }
    }

    private func connect() throws {
        if let handle { PQfinish(handle) }
        prepared = [:]
        handle = PQconnectdb(url)
        guard let handle, PQstatus(handle) == CONNECTION_OK else {
            let message = handle.map { String(cString: PQerrorMessage($0)) } ?? "out of memory"
            throw StorageError(.unavailable, "cannot connect to PostgreSQL: \(Self.redacted(message))")
        }
        // Notices (such as "relation already exists, skipping") are not errors: keep them out of
        // standard error.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        // A session left waiting inside a transaction (its client lost in an outage) is ended by
        // the server, so its locks go and the client's next read fails instead of waiting.
        //
        // Statements are prepared once, but planned at every execution: the tables grow from empty
        // to millions of rows within minutes (a fan-out), and a plan cached while the deliveries
        // table was small (a sequential scan per claim, a device looked up through its app's
        // index) made claims of a 20,000-device message take seconds each.
        let result = PQexec(handle, "SET idle_in_transaction_session_timeout = '15s'; SET plan_cache_mode = force_custom_plan")
        PQclear(result)
    }

    /// Whether the connection is usable; a broken one is re-established before the next call.
    package var isHealthy: Bool { handle.map { PQstatus($0) == CONNECTION_OK } ?? false }

    /// Re-establishes a broken connection (the server restarted, failed over, or dropped it).
    package func reconnectIfNeeded() throws {
        if !isHealthy { try connect() }
    }

    /// Runs statements that take no parameters (a migration, `BEGIN`).
    package func execute(_ sql: String) throws {
        try reconnectIfNeeded()
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql)
    }

    /// The connection's socket, to wait on for notifications; nil when not connected.
    package var socket: Int32? { handle.map(PQsocket).flatMap { $0 >= 0 ? $0 : nil } }

    /// The payloads of the notifications (`LISTEN`) that arrived on `channel`, after reading
    /// whatever the server sent; throws when the connection is lost.
    package func notifications(on channel: String) throws -> [String] {
        guard let handle, PQconsumeInput(handle) == 1 else {
            throw StorageError(.unavailable, "PostgreSQL: the listening connection was lost")
        }
        var payloads: [String] = []
        while let notification = PQnotifies(handle) {
            if String(cString: notification.pointee.relname) == channel { payloads.append(String(cString: notification.pointee.extra)) }
            PQfreemem(notification)
        }
        return payloads
    }

    /// Runs `sql` (with `$1`… placeholders) as a prepared statement and returns its rows.
    @discardableResult
    package func query(_ sql: String, _ values: [SQLParameter] = []) throws -> PostgresResult {
        try reconnectIfNeeded()
        let name = try statementName(for: sql, parameters: values.count)
        let texts: [String?] = values.map(\.text)
        if let plans, QueryPlans.isQuery(sql), !plans.has(sql) { plans.record(sql: sql, plan: try queryPlan(sql, texts)) }
        let result = withCStrings(texts) { pointers in
            PQexecPrepared(handle, name, Int32(values.count), pointers, nil, nil, 0)
        }
        do {
            try check(result, sql)
        } catch {
            PQclear(result)
            throw error
        }
        return PostgresResult(result!)
    }

    /// PostgreSQL's plan for `sql` with these parameters (`EXPLAIN (FORMAT JSON)`), planned with
    /// sequential scans disabled: one that is left is a table no index could serve.
    package func queryPlan(_ sql: String, _ texts: [String?]) throws -> String {
        try execute("SET enable_seqscan = off")
        defer { _ = try? execute("RESET enable_seqscan") }
        let result = withCStrings(texts) { pointers in
            PQexecParams(handle, "EXPLAIN (FORMAT JSON) " + sql, Int32(texts.count), nil, pointers, nil, nil, 0)
        }
        defer { PQclear(result) }
        try check(result, sql)
        return String(cString: PQgetvalue(result, 0, 0))
    }

    /// Runs `sql` and returns the number of rows it changed.
    @discardableResult
    package func run(_ sql: String, _ values: [SQLParameter] = []) throws -> Int {
        try query(sql, values).changed
    }

    /// Runs `body` in one transaction, committing when it returns and rolling back when it
    /// throws. A serialization failure or deadlock (another node won) runs it again, a few times.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            try execute("BEGIN")
            do {
                let result = try body()
                try execute("COMMIT")
                return result
            } catch let error as StorageError where error.isRetryableConflict && attempt < 5 {
                _ = try? execute("ROLLBACK")
                continue
            } catch {
                if isHealthy { _ = try? execute("ROLLBACK") }
                throw error
            }
        }
    }

    private func statementName(for sql: String, parameters: Int) throws -> String {
        if let name = prepared[sql] { return name }
        let name = "nb\(prepared.count)"
        let result = PQprepare(handle, name, sql, Int32(parameters), nil)
        defer { PQclear(result) }
        try check(result, sql)
        prepared[sql] = name
        return name
    }

    /// The error funnel: throws unless `result` is a success. Connection errors and server
    /// shutdowns are `unavailable` (the pool reconnects); serialization failures and deadlocks
    /// are retryable conflicts; constraint violations are conflicts; the rest is corrupt.
    package func check(_ result: OpaquePointer?, _ sql: @autoclosure () -> String) throws {
        guard let result else {
            throw StorageError(.unavailable, "PostgreSQL: \(Self.redacted(handle.map { String(cString: PQerrorMessage($0)) } ?? "no connection"))")
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY, PGRES_COPY_IN:
            return
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            let message = String(cString: PQresultErrorMessage(result)).split(separator: "\n").first.map(String.init) ?? "error"
            throw StorageError(Self.kind(sqlState: state, healthy: isHealthy), "PostgreSQL \(state): \(message) (in \(sql().prefix(120)))",
                               sqlState: state)
        }
    }

    /// What a SQLSTATE means for the caller.
    package static func kind(sqlState: String, healthy: Bool) -> StorageError.Kind {
        if !healthy { return .unavailable }
        switch sqlState.prefix(2) {
        case "08", "53", "57", "58": return .unavailable  // connection, resources, operator intervention, system
        case "40": return .conflict  // serialization failure, deadlock: retried by transaction()
        case "23": return .conflict  // integrity constraint
        default: return sqlState.isEmpty ? .unavailable : .corrupt
        }
    }

    /// A libpq message without anything that looks like a password.
    package static func redacted(_ message: String) -> String {
        message.replacing(/password=\S+/, with: "password=…").replacing(/:\/\/([^:@\/]+):[^@]*@/) { "://\($0.output.1):…@" }
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Calls `body` with C strings for `texts` (NULL for nil), valid for the call.
private func withCStrings<T>(_ texts: [String?], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
    var storage: [UnsafeMutablePointer<CChar>?] = texts.map { $0.map { strdup($0) } ?? nil }
    defer { for pointer in storage { free(pointer) } }
    return storage.withUnsafeMutableBufferPointer { buffer in
        body(buffer.map { $0.map { UnsafePointer($0) } })
    }
}

extension SQLParameter {
    /// The value in PostgreSQL's text format (`bytea` as `\x` and hexadecimal digits).
    fileprivate var text: String? {
        switch self {
        case .null: nil
        case .int(let value): String(value)
        case .text(let value): value
        case .bytes(let bytes): "\\x" + bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        }
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}

/// The rows of a result, read as text. Owns the libpq result until it is released.
package final class PostgresResult {
    private let result: OpaquePointer

    package init(_ result: OpaquePointer) { self.result = result }
    deinit { PQclear(result) }

    /// How many rows it holds.
    package var count: Int { Int(PQntuples(result)) }

    /// How many rows the statement changed.
    package var changed: Int { Int(String(cString: PQcmdTuples(result))) ?? 0 }

    /// Maps every row.
    package func map<T>(_ transform: (PostgresRow) throws -> T) rethrows -> [T] {
        try (0..<Int32(count)).map { try transform(PostgresRow(result: result, row: $0)) }
    }

    /// The first row, mapped, or nil.
    package func first<T>(_ transform: (PostgresRow) throws -> T) rethrows -> T? {
        count == 0 ? nil : try transform(PostgresRow(result: result, row: 0))
    }
}

/// One row of a ``PostgresResult``, valid while the result is.
package struct PostgresRow: StoredRow {
    fileprivate let result: OpaquePointer
    fileprivate let row: Int32

    package func isNull(_ column: Int32) -> Bool { PQgetisnull(result, row, column) == 1 }

    package func text(_ column: Int32) -> String { String(cString: PQgetvalue(result, row, column)) }

    package func int(_ column: Int32) -> Int { Int(text(column)) ?? 0 }

    /// A `bytea` column (PostgreSQL's hex output: `\x` then two digits a byte).
    package func blob(_ column: Int32) -> [UInt8] {
        let digits = Array(text(column).utf8.dropFirst(2))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index + 1 < digits.count {
            bytes.append(UInt8(Self.nibble(digits[index]) << 4 | Self.nibble(digits[index + 1])))
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8 {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: digit &- UInt8(ascii: "A") &+ 10
        }
    }
}
