extension SQLiteStore {

    /// Stores a new message, or, when `idempotencyKey` was used by the app within `window`
    /// milliseconds, returns the message stored then (`replayed`).
    func createMessage(_ message: NewMessage, idempotencyKey: String?, window: Int) throws -> (MessageRecord, replayed: Bool) {
        try connection.transaction {
            if let key = idempotencyKey {
                let earlier = try connection.first(
                    "SELECT message_id, created_at FROM idempotency_keys WHERE app_id = ? AND key = ?",
                    [.text(message.appID), .text(key)]) { ($0.text(0), $0.int(1)) }
                if let earlier, earlier.1 > message.createdAt - window,
                   let stored = try reads.message(appID: message.appID, id: earlier.0) {
                    return (stored, true)
                }
            }
            let seq = try connection.first(
                """
                INSERT INTO messages (id, app_id, content, audience, state, send_at, audience_size, created_at, pacing)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq
                """,
                [.text(message.id), .text(message.appID), .text(message.storedContent), .text(message.storedAudience), .text(MessageState.scheduled.rawValue),
                 .int(message.sendAt), .int(message.audienceSize), .int(message.createdAt), .optionalText(try message.pacing.map(StoredJSON.encode))]) { $0.int(0) } ?? 0
            if let key = idempotencyKey {
                // After the message: the key points at it.
                try connection.run(
                    "INSERT OR REPLACE INTO idempotency_keys (app_id, key, message_id, created_at) VALUES (?, ?, ?, ?)",
                    [.text(message.appID), .text(key), .text(message.id), .int(message.createdAt)])
            }
            return (message.record(seq: seq), false)
        }
    }

    /// Cancels a message that has not finished: no more fan-out, and deliveries not yet sent are
    /// cancelled. Returns the message as it is afterwards, or nil when the app has no such message.
    func cancelMessage(appID: String, id: String, now: Int) throws -> MessageRecord? {
        try connection.transaction {
            guard let message = try reads.message(appID: appID, id: id) else { return nil }
            guard Lifecycle.unfinished.contains(message.state) else { return message }
            try connection.run("UPDATE messages SET state = 'cancelled', finished_at = ? WHERE seq = ?", [.int(now), .int(message.seq)])
            let cancelled = try connection.query(
                """
                UPDATE deliveries SET state = 'cancelled', due_at = NULL, updated_at = ?
                WHERE message_seq = ? AND state IN (\(Lifecycle.pendingSQL)) RETURNING seq
                """, [.int(now), .int(message.seq)]) { $0.int(0) }
            for seq in cancelled {
                try connection.run("INSERT INTO delivery_events (delivery_seq, event, at) VALUES (?, 'cancelled', ?)", [.int(seq), .int(now)])
            }
            return try reads.message(seq: message.seq)
        }
    }

    /// Gives up a message that cannot be fanned out or sent: it stops, and its deliveries not yet
    /// sent fail with `reason`.
    func failMessage(seq: Int, reason: String, now: Int) throws {
        try connection.transaction {
            guard try connection.run(
                "UPDATE messages SET state = 'failed', failure_reason = ?, finished_at = ? WHERE seq = ? AND state IN (\(Lifecycle.unfinishedSQL))",
                [.text(reason), .int(now), .int(seq)]) == 1 else { return }
            let failed = try connection.query(
                """
                UPDATE deliveries SET state = 'failed', due_at = NULL, updated_at = ?
                WHERE message_seq = ? AND state IN (\(Lifecycle.pendingSQL)) RETURNING seq
                """, [.int(now), .int(seq)]) { $0.int(0) }
            let detail = DeliveryEventDetail.because(reason).stored
            for delivery in failed {
                try connection.run("INSERT INTO delivery_events (delivery_seq, event, at, detail) VALUES (?, 'failed', ?, ?)", [.int(delivery), .int(now), .text(detail)])
            }
        }
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
            let messages = try connection.run(
                """
                DELETE FROM messages WHERE seq IN (
                    SELECT m.seq FROM messages m WHERE m.state IN (\(Lifecycle.finishedSQL)) AND m.finished_at < ?
                    AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.message_seq = m.seq) LIMIT ?)
                """, [.int(finishedBefore), .int(limit)])
            return deliveries + messages
        }
    }
}

/// Messages and their audiences, read on a reader's connection (or the writer's, inside its transactions: ``SQLiteReads``).
extension SQLiteReads {
    /// How many active devices of the app an audience matches now.
    func audienceSize(appID: String, _ audience: Audience) throws -> Int {
        let source = audience.sqlSource
        return try connection.first(
            "SELECT count(*) FROM \(source.from) WHERE devices.app_id = ? AND devices.active = 1 AND \(source.condition)",
            source.fromValues + [.text(appID)] + source.values) { $0.int(0) } ?? 0
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

    /// The app's messages, newest first, before `beforeSeq`.
    func messages(appID: String, beforeSeq: Int, limit: Int) throws -> [MessageRecord] {
        try connection.query(
            "SELECT \(Rows.messageColumns) FROM messages WHERE app_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?",
            [.text(appID), .int(beforeSeq), .int(limit)], Rows.message)
    }

    /// Delivery counts of a message by state and platform.
    func deliveryCounts(messageSeq: Int) throws -> [(state: String, platform: String, count: Int)] {
        try connection.query(
            "SELECT state, platform, count(*) FROM deliveries WHERE message_seq = ? GROUP BY state, platform",
            [.int(messageSeq)]) { (state: $0.text(0), platform: $0.text(1), count: $0.int(2)) }
    }
}
