import Foundation
import NotibaseDomain
import NotibaseStore

/// Retention on PostgreSQL: the delivery history lives in weekly partitions (``PostgresSchema/historyByWeek``),
/// made ahead of time and dropped a whole week at a time; what the DEFAULT partition caught, and
/// weeks a late message still holds, are removed in batches as on SQLite.
extension PostgresStore {
    /// One node at a time makes or drops partitions: an advisory lock of the schema's (two
    /// Notibase databases in one PostgreSQL database, as the tests keep them, do not wait on
    /// each other). A node that finds it busy waits at most ``historyLockTimeout``, then leaves the
    /// work to the node holding it.
    package static let historyLock = "SELECT pg_advisory_xact_lock(hashtext('notibase history partitions ' || current_schema()))"

    /// How far ahead of now partitions exist: the furthest `sendAt` (30 days), a day for sends at
    /// each device's local time, and a day to spare.
    package static let historyAhead = 32 * 86_400_000

    /// How long making or dropping a partition waits for its locks (both take an ACCESS EXCLUSIVE
    /// lock on the parent tables for an instant) before giving up until the next round, so traffic
    /// never queues behind it for longer.
    package static let historyLockTimeout = "2s"

    package func prepareHistory(now: Int) async throws {
        try await pool.withConnection { try Self.makePartitions($0, now: now) }
    }

    /// Makes the week of `now` and the weeks up to ``historyAhead`` where missing; returns how many
    /// weeks it made (0 when they all existed, or the locks stayed busy).
    @discardableResult
    package static func makePartitions(_ connection: PostgresConnection, now: Int) throws -> Int {
        try whileHoldingHistoryLock(connection) {
            try connection.query("SELECT notibase_make_history_partitions($1, $2)", [.int(now), .int(now + historyAhead)]).first { $0.int(0) } ?? 0
        } ?? 0
    }

    /// Drops each week whose whole range ended before `finishedBefore` and whose messages all
    /// finished before it too (checked through `messages`, not by scanning the week): its
    /// receipts, events and deliveries go together. Returns how many weeks it dropped.
    package func dropExpiredHistory(finishedBefore: Int) async throws -> Int {
        try await pool.withConnection { connection in
            let weeks = try connection.query(
                """
                SELECT substring(c.relname FROM 12), b.lower, b.upper FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid,
                LATERAL (SELECT substring(pg_get_expr(c.relpartbound, c.oid) FROM 'FROM [(]''?(-?[0-9]+)')::bigint AS lower,
                                substring(pg_get_expr(c.relpartbound, c.oid) FROM 'TO [(]''?(-?[0-9]+)')::bigint AS upper) b
                WHERE i.inhparent = 'deliveries'::regclass AND b.upper <= $1 ORDER BY b.lower
                """, [.int(finishedBefore)]).map { Week(suffix: $0.text(0), lower: $0.int(1), upper: $0.int(2)) }
            return try weeks.reduce(0) { dropped, week in
                dropped + (try Self.drop(week, connection, finishedBefore: finishedBefore) ? 1 : 0)
            }
        }
    }

    private struct Week {
        package var suffix: String
        package var lower: Int
        package var upper: Int
    }

    private static func drop(_ week: Week, _ connection: PostgresConnection, finishedBefore: Int) throws -> Bool {
        try whileHoldingHistoryLock(connection) {
            let held = try connection.query(
                """
                SELECT 1 FROM messages m WHERE (m.finished_at IS NULL OR m.finished_at >= $1) AND m.created_at < $3
                AND EXISTS (SELECT 1 FROM deliveries d WHERE d.message_seq = m.seq AND d.created_at >= $2 AND d.created_at < $3) LIMIT 1
                """, [.int(finishedBefore), .int(week.lower), .int(week.upper)]).count > 0
            guard !held else { return false }
            // The referencing partitions first; a referenced one must be detached before it can go.
            let name = { (table: String) in "\"\(table)_\(week.suffix.replacingOccurrences(of: "\"", with: "\"\""))\"" }
            try connection.execute(
                """
                DROP TABLE IF EXISTS \(name("receipts")), \(name("delivery_events"));
                ALTER TABLE deliveries DETACH PARTITION \(name("deliveries"));
                DROP TABLE \(name("deliveries"))
                """)
            return true
        } ?? false
    }

    /// Runs `body` in a transaction holding ``historyLock``, its lock waits bounded by
    /// ``historyLockTimeout``; nil when a lock wait timed out.
    private static func whileHoldingHistoryLock<T>(_ connection: PostgresConnection, _ body: () throws -> T) throws -> T? {
        do {
            return try connection.transaction {
                try connection.execute("SET LOCAL lock_timeout = '\(historyLockTimeout)'")
                try connection.run(historyLock)
                return try body()
            }
        } catch let error as StorageError where error.sqlState == "55P03" {
            return nil  // lock_not_available: the tables were busy; the next round tries again
        }
    }

    /// Retention's batch (``SQLExecutor/purgeFinishedMessages(before:limit:deliveries:)``) of the
    /// deliveries in the DEFAULT partition and in weeks that ended before `finishedBefore` but
    /// could not be dropped; deliveries in weeks still running wait for their week to be dropped.
    package func purgeMessages(finishedBefore: Int, limit: Int) async throws -> Int {
        try await pool.transaction { connection in
            try connection.purgeFinishedMessages(
                before: finishedBefore, limit: limit,
                deliveries: """
                    DELETE FROM deliveries WHERE (seq, created_at) IN (
                        SELECT d.seq, d.created_at FROM messages m JOIN deliveries d ON d.message_seq = m.seq
                        WHERE m.state IN (\(Lifecycle.finishedSQL)) AND m.finished_at < $1
                        AND (d.created_at < notibase_history_week($1) OR d.tableoid = 'deliveries_default'::regclass) LIMIT $2)
                    """)
        }
    }
}
