import NotibaseCore
package import NotibaseDomain
package import NotibaseStore

/// The statements of the rules written once (``SQLStore``), in SQLite's dialect, on the writer's
/// connection inside its transaction.
package struct SQLiteStatements: PostingStatements, EndingStatements, ForgettingStatements, SQLStatements {
    package let connection: SQLiteConnection
    /// The store's fan-out batch, for a message this transaction stored.
    package let writeBatch: (PostedMessage, MessageRecord, FanOutClaim?) throws -> FanOutBatch

    package var executor: SQLiteReads { SQLiteReads(connection: connection) }

    // MARK: Posting

    package func audienceSize(of message: NewMessage, reading: Int) throws -> Int {
        try executor.audienceSize(appID: message.appID, message.audience)
    }

    /// No lock needed: the one writer's transactions run one after the other.
    package func idempotencyKey(appID: String, key: String) throws -> StoredIdempotencyKey? {
        try connection.first("SELECT message_id, created_at, request_digest FROM idempotency_keys WHERE app_id = ? AND key = ?", [.text(appID), .text(key)]) {
            StoredIdempotencyKey(messageID: $0.text(0), createdAt: $0.int(1), digest: $0.optionalText(2))
        }
    }

    package func insert(_ message: NewMessage, announced: Bool) throws -> Int {
        try connection.first(
            """
            INSERT INTO messages (id, app_id, content, audience, state, send_at, audience_size, created_at, pacing)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq
            """,
            [.text(message.id), .text(message.appID), .text(message.storedContent), .text(message.storedAudience), .text(MessageState.scheduled.rawValue),
             .int(message.sendAt), .int(message.audienceSize), .int(message.createdAt), .optionalText(try message.pacing.map(StoredJSON.encode))]) { $0.int(0) } ?? 0
    }

    package func writeDeliveries(_ post: PostedMessage, stored: MessageRecord, claim: FanOutClaim?) throws -> PostedMessage.Outcome {
        let batch = try writeBatch(post, stored, claim)
        // What the batch changed (sending, or completed when nobody matched), without decoding
        // the content again.
        var after = stored
        try connection.each("SELECT state, finished_at FROM messages WHERE seq = ?", [.int(stored.seq)]) { row in
            after.state = MessageState(rawValue: row.text(0)) ?? after.state
            after.finishedAt = row.optionalInt(1)
        }
        return PostedMessage.Outcome(record: after, replayed: false, written: batch.written, claimed: batch.claimed, counts: batch.counts)
    }

    // MARK: Ending

    package func end(_ end: PendingEnd) throws -> [EndedDelivery] {
        let pending = "state IN (\(Lifecycle.pendingSQL))"
        let (condition, values): (String, [SQLParameter]) = switch end.scope {
        case .device(let seq): ("device_seq = ? AND \(pending)", [.int(seq)])
        case .signedOut(let seq):
            ("device_seq = ? AND \(pending) AND EXISTS (SELECT 1 FROM messages m WHERE m.seq = deliveries.message_seq AND substr(m.audience, 1, ?) = ?)",
             [.int(seq), .int(Rows.userAudiencePrefix.utf8.count), .text(Rows.userAudiencePrefix)])
        case .message(let seq, let limit): ("seq IN (SELECT seq FROM deliveries WHERE message_seq = ? AND \(pending) LIMIT ?)", [.int(seq), .int(limit)])
        }
        let ended = try connection.query(
            "UPDATE deliveries SET state = ?, due_at = NULL, updated_at = ? WHERE \(condition) RETURNING seq, message_seq",
            [.text(end.state.rawValue), .int(end.now)] + values) { EndedDelivery(seq: $0.int(0), messageSeq: $0.int(1)) }
        for delivery in ended {
            try connection.run(
                "INSERT INTO delivery_events (delivery_seq, event, at, detail) VALUES (?, ?, ?, ?)",
                [.int(delivery.seq), .text(end.state.rawValue), .int(end.now), .optionalText(end.detail)])
        }
        return ended
    }

    package func complete(messageSeqs: Set<Int>, now: Int) throws {
        for seq in messageSeqs { try connection.run(SQLiteStore.completion, [.int(now), .int(seq), .int(seq)]) }
    }

    // MARK: Forgetting

    package func userAudiences(appID: String, after afterSeq: Int, upTo lastSeq: Int, containing needle: String) throws -> [(seq: Int, audience: String)] {
        try connection.query(
            "SELECT seq, audience FROM messages WHERE app_id = ? AND seq > ? AND seq <= ? AND substr(audience, 1, ?) = ? AND instr(audience, ?) > 0",
            [.text(appID), .int(afterSeq), .int(lastSeq), .int(Rows.userAudiencePrefix.utf8.count), .text(Rows.userAudiencePrefix), .text(needle)]) {
                (seq: $0.int(0), audience: $0.text(1))
            }
    }

}

extension SQLiteStore: SQLStore {
    package func inTransaction<T: Sendable>(_ body: @escaping @Sendable (SQLiteStatements) throws -> T) throws -> T {
        let statements = SQLiteStatements(connection: connection) { post, stored, claim in
            try self.writeFanOutBatch(
                messageSeq: stored.seq, audience: post.message.audience, limit: PostingPlan.reading(post), now: post.now, claim: claim, plan: post.plan,
                inserted: stored)
        }
        return try connection.transaction { try body(statements) }
    }

    /// One writer: nothing commits between the ending and the completion.
    package nonisolated var completesAfterCommit: Bool { false }
}
