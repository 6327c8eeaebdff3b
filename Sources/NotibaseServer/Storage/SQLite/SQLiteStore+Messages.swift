import NotibaseCore

extension SQLiteStore {

    /// Marks a message that cannot be fanned out or sent `failed` with `reason`; returns whether
    /// it did (its deliveries are ended in batches afterwards).
    func markFailed(seq: Int, reason: String, now: Int) throws -> Bool {
        try connection.run(
            "UPDATE messages SET state = 'failed', failure_reason = ?, finished_at = ? WHERE seq = ? AND state IN (\(Lifecycle.unfinishedSQL))",
            [.text(reason), .int(now), .int(seq)]) == 1
    }

    /// Cancelled or failed messages with a delivery among the `window` earliest due by `now`.
    func abandonedMessages(now: Int, window: Int) throws -> [Int] {
        try connection.query(
            """
            SELECT DISTINCT message_seq FROM (SELECT message_seq FROM deliveries WHERE due_at <= ? ORDER BY due_at LIMIT ?) AS due
            WHERE (SELECT state FROM messages WHERE seq = due.message_seq) IN (\(Lifecycle.finishedSQL))
            """, [.int(now), .int(window)]) { $0.int(0) }
    }
}

extension SQLiteStore {
    /// Nothing to prepare: the history is one table of each kind.
    func prepareHistory(now: Int) {}

    /// Nothing is partitioned: retention removes in batches (``purgeMessages(finishedBefore:limit:)``).
    func dropExpiredHistory(finishedBefore: Int) -> Int { 0 }

    /// Removes up to `limit` deliveries (with their events and receipts) of messages that
    /// finished before `finishedBefore`, and then such messages left without deliveries. Returns
    /// how many rows it removed; 0 when nothing is left to remove. Small transactions, so the
    /// API and the workers go on between them.
    func purgeMessages(finishedBefore: Int, limit: Int) throws -> Int {
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

/// Messages and their audiences, read on a reader's connection (or the writer's, inside its transactions: ``SQLiteReads``).
extension SQLiteReads {
    /// How many active devices of the app an audience matches now.
    func audienceReaches(appID: String, _ audience: Audience, platform: Platform) throws -> Bool {
        let source = audience.sqlSource
        return try connection.first(
            "SELECT 1 FROM \(source.from) WHERE devices.app_id = ? AND devices.active = 1 AND devices.platform = ? AND \(source.condition) LIMIT 1",
            source.fromValues + [.text(appID), .text(platform.rawValue)] + source.values) { $0.int(0) } != nil
    }

    func audienceSize(appID: String, _ audience: Audience) throws -> Int {
        let source = audience.sqlSource
        return try connection.first(
            "SELECT count(*) FROM \(source.from) WHERE devices.app_id = ? AND devices.active = 1 AND \(source.condition)",
            source.fromValues + [.text(appID)] + source.values) { $0.int(0) } ?? 0
    }

    func matchedExternalUsers(appID: String, _ users: [String]) throws -> Int {
        let source = Audience.externalUsers(users).sqlSource
        return try connection.first(
            "SELECT count(DISTINCT devices.external_user_id) FROM \(source.from) WHERE devices.app_id = ? AND devices.active = 1",
            source.fromValues + [.text(appID)]) { $0.int(0) } ?? 0
    }

    /// The active devices of the app an audience matches now, counted by time zone (nil: none).
    /// Counted as the rows stream by rather than with `GROUP BY`, which sorts the whole audience
    /// first (a second for a million devices, before the message can be stored).
    func audienceByTimeZone(appID: String, _ audience: Audience) throws -> [String?: Int] {
        let source = audience.sqlSource
        var tally = TextTally()
        try connection.each(
            "SELECT devices.time_zone FROM \(source.from) WHERE devices.app_id = ? AND devices.active = 1 AND \(source.condition)",
            source.fromValues + [.text(appID)] + source.values) { row in row.withText(0) { tally.add($0) } }
        return tally.counts
    }

    /// How many of a message's deliveries wait for a later moment (never tried, due after `now`),
    /// and when the last of them is due.
    func waitingDeliveries(messageSeq: Int, now: Int) throws -> (count: Int, lastDueAt: Int?) {
        try connection.first(
            "SELECT count(*), max(due_at) FROM deliveries WHERE message_seq = ? AND state = 'queued' AND attempts = 0 AND due_at > ?",
            [.int(messageSeq), .int(now)]) { ($0.int(0), $0.optionalInt(1)) } ?? (0, nil)
    }

    func message(appID: String, id: String) throws -> MessageRecord? {
        try connection.first("SELECT \(Rows.messageColumns) FROM messages WHERE id = ? AND app_id = ?", [.text(id), .text(appID)], Rows.message)
    }

    func message(seq: Int) throws -> MessageRecord? {
        try connection.first("SELECT \(Rows.messageColumns) FROM messages WHERE seq = ?", [.int(seq)], Rows.message)
    }

    func messages(seqs: [Int]) throws -> [MessageRecord] {
        try connection.query(
            "SELECT \(Rows.messageColumns) FROM messages WHERE seq IN (SELECT value FROM json_each(?))", [.text(JSON.text(seqs))], Rows.message)
    }

    /// A page of the app's messages, through `messages_app (app_id, seq)` in either order.
    func messages(appID: String, page: SeqPage) throws -> [MessageRecord] {
        try connection.query(
            "SELECT \(Rows.messageColumns) FROM messages WHERE app_id = ? AND seq \(page.comparison) ? \(page.orderBy("seq")) LIMIT ?",
            [.text(appID), .int(page.bound), .int(page.limit)], Rows.message)
    }

    func messageCount(appID: String) throws -> Int {
        try connection.first("SELECT count(*) FROM messages WHERE app_id = ?", [.text(appID)]) { $0.int(0) } ?? 0
    }

    /// Delivery counts of a message by state and platform.
    func deliveryCounts(messageSeq: Int) throws -> [(state: String, platform: String, count: Int)] {
        try connection.query(
            "SELECT state, platform, count(*) FROM deliveries WHERE message_seq = ? GROUP BY state, platform",
            [.int(messageSeq)]) { (state: $0.text(0), platform: $0.text(1), count: $0.int(2)) }
    }
}
