package import NotibaseDomain
import NotibaseStore

extension SQLiteStore {
    /// Nothing to prepare: the history is one table of each kind.
    package func prepareHistory(now: Int) {}

    /// Nothing is partitioned: retention removes in batches (``purgeMessages(finishedBefore:limit:)``).
    package func dropExpiredHistory(finishedBefore: Int) -> Int { 0 }

    /// Removes up to `limit` deliveries (with their events and receipts) of messages that
    /// finished before `finishedBefore`, and then such messages left without deliveries. Returns
    /// how many rows it removed; 0 when nothing is left to remove. Small transactions, so the
    /// API and the workers go on between them.
    package func purgeMessages(finishedBefore: Int, limit: Int) throws -> Int {
        try connection.transaction {
            let deliveries = try connection.run(
                """
                DELETE FROM deliveries WHERE seq IN (
                    SELECT d.seq FROM messages m JOIN deliveries d ON d.message_seq = m.seq
                    WHERE m.state IN (\(Lifecycle.finishedSQL)) AND m.finished_at < ? LIMIT ?)
                """, [.int(finishedBefore), .int(limit)])
            let removed = try connection.query(
                """
                DELETE FROM messages WHERE seq IN (
                    SELECT m.seq FROM messages m WHERE m.state IN (\(Lifecycle.finishedSQL)) AND m.finished_at < ?
                    AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.message_seq = m.seq) LIMIT ?)
                RETURNING app_id, length(CAST(content AS BLOB)) + length(CAST(audience AS BLOB))
                """, [.int(finishedBefore), .int(limit)]) { (app: $0.text(0), bytes: $0.int(1)) }
            for (app, bytes) in StoredBytes.byApp(removed) {
                try connection.run("UPDATE apps SET stored_bytes = max(0, stored_bytes - ?) WHERE id = ?", [.int(bytes), .text(app)])
            }
            return deliveries + removed.count
        }
    }
}

/// An audience counted by time zone, read on a reader's connection (``SQLiteReads``).
extension SQLiteReads {
    /// The active devices of the app an audience matches now, counted by time zone (nil: none).
    /// Counted as the rows stream by rather than with `GROUP BY`, which sorts the whole audience
    /// first (a second for a million devices, before the message can be stored).
    package func audienceByTimeZone(appID: String, _ audience: Audience) throws -> [String?: Int] {
        let source = audience.source(.sqlite, first: 2)
        var tally = TextTally()
        try connection.each(
            "SELECT devices.time_zone FROM \(source.from) WHERE devices.app_id = ?1 AND devices.active = 1 AND \(source.condition)",
            ([.text(appID)] + source.values).map(\.sqlite)) { row in row.withText(0) { tally.add($0) } }
        return tally.counts
    }
}
