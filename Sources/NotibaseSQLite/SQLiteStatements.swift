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
    package func idempotencyKey(appID: String, key: String) throws -> StoredIdempotencyKey? { try executor.idempotencyKey(appID: appID, key: key) }

    package func insert(_ message: NewMessage, announced: Bool) throws -> Int { try executor.insert(message) }

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
        let (condition, values) = end.condition(.sqlite, first: 3)
        let ended = try executor.rows(
            "UPDATE deliveries SET state = ?1, due_at = NULL, updated_at = ?2 WHERE \(condition) RETURNING seq, message_seq",
            [.text(end.state.rawValue), .int(end.now)] + values) { EndedDelivery(seq: $0.int(0), messageSeq: $0.int(1)) }
        for delivery in ended {
            try connection.run(
                "INSERT INTO delivery_events (delivery_seq, event, at, detail) VALUES (?, ?, ?, ?)",
                [.int(delivery.seq), .text(end.state.rawValue), .int(end.now), .optionalText(end.detail)])
        }
        return ended
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
