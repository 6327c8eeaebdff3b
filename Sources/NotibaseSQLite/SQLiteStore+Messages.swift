package import NotibaseDomain
import NotibaseStore

extension SQLiteStore {
    /// Nothing to prepare: the history is one table of each kind.
    package func prepareHistory(now: Int) {}

    /// Nothing is partitioned: retention removes in batches (``purgeMessages(finishedBefore:limit:)``).
    package func dropExpiredHistory(finishedBefore: Int) -> Int { 0 }

    /// Retention's batch (``SQLExecutor/purgeFinishedMessages(before:limit:deliveries:)``): every
    /// delivery is in the one table.
    package func purgeMessages(finishedBefore: Int, limit: Int) throws -> Int {
        try connection.transaction {
            try reads.purgeFinishedMessages(
                before: finishedBefore, limit: limit,
                deliveries: """
                    DELETE FROM deliveries WHERE seq IN (
                        SELECT d.seq FROM messages m JOIN deliveries d ON d.message_seq = m.seq
                        WHERE m.state IN (\(Lifecycle.finishedSQL)) AND m.finished_at < ?1 LIMIT ?2)
                    """)
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
            [.text(appID)] + source.values) { row in row.withText(0) { tally.add($0) } }
        return tally.counts
    }
}
