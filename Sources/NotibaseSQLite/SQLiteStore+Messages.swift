package import NotibaseCore
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

/// Messages and their audiences, read on a reader's connection (or the writer's, inside its transactions: ``SQLiteReads``).
extension SQLiteReads {
    /// How many active devices of the app an audience matches now.
    package func audienceReaches(appID: String, _ audience: Audience, platform: Platform) throws -> Bool {
        let source = audience.sqlSource
        return try connection.first(
            "SELECT 1 FROM \(source.from) WHERE devices.app_id = ? AND devices.active = 1 AND devices.platform = ? AND \(source.condition) LIMIT 1",
            source.fromValues + [.text(appID), .text(platform.rawValue)] + source.values) { $0.int(0) } != nil
    }

    package func audienceSize(appID: String, _ audience: Audience) throws -> Int {
        let source = audience.sqlSource
        return try connection.first(
            "SELECT count(*) FROM \(source.from) WHERE devices.app_id = ? AND devices.active = 1 AND \(source.condition)",
            source.fromValues + [.text(appID)] + source.values) { $0.int(0) } ?? 0
    }

    package func matchedExternalUsers(appID: String, _ users: [String]) throws -> Int {
        let source = Audience.externalUsers(users).sqlSource
        return try connection.first(
            "SELECT count(DISTINCT devices.external_user_id) FROM \(source.from) WHERE devices.app_id = ? AND devices.active = 1",
            source.fromValues + [.text(appID)]) { $0.int(0) } ?? 0
    }

    /// The active devices of the app an audience matches now, counted by time zone (nil: none).
    /// Counted as the rows stream by rather than with `GROUP BY`, which sorts the whole audience
    /// first (a second for a million devices, before the message can be stored).
    package func audienceByTimeZone(appID: String, _ audience: Audience) throws -> [String?: Int] {
        let source = audience.sqlSource
        var tally = TextTally()
        try connection.each(
            "SELECT devices.time_zone FROM \(source.from) WHERE devices.app_id = ? AND devices.active = 1 AND \(source.condition)",
            source.fromValues + [.text(appID)] + source.values) { row in row.withText(0) { tally.add($0) } }
        return tally.counts
    }
}
