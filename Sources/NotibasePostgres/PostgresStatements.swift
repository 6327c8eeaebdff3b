import NotibaseCore
package import NotibaseDomain
package import NotibaseStore

/// The statements of the rules written once (``SQLStore``), in PostgreSQL's dialect, on one
/// connection inside its transaction.
package final class PostgresStatements: PostingStatements, EndingStatements, ForgettingStatements, SQLStatements {
    private let store: PostgresStore
    private let connection: PostgresConnection
    /// The devices ``audienceSize(of:reading:)`` read, kept for the post's deliveries: one
    /// statement where a count and a read took two.
    private var targets: [FanOutTarget]?
    /// When the latest deliveries written were stamped (their week gets its statistics after the commit).
    package private(set) var stamped: Int?

    package var executor: PostgresConnection { connection }

    package init(store: PostgresStore, connection: PostgresConnection) {
        self.store = store
        self.connection = connection
    }

    // MARK: Posting

    package func audienceSize(of message: NewMessage, reading: Int) throws -> Int {
        let targets = try PostgresStore.fanOutTargets(connection, appID: message.appID, audience: message.audience, after: 0, limit: reading)
        self.targets = targets
        return targets.count < reading ? targets.count : try PostgresStore.audienceSize(connection, appID: message.appID, message.audience)
    }

    /// The key is locked for the transaction, so two nodes given the same key create one message.
    package func idempotencyKey(appID: String, key: String) throws -> StoredIdempotencyKey? {
        try connection.run("SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))", [.text(appID), .text(key)])
        return try connection.query("SELECT message_id, created_at, request_digest FROM idempotency_keys WHERE app_id = $1 AND key = $2", [.text(appID), .text(key)])
            .first { StoredIdempotencyKey(messageID: $0.text(0), createdAt: $0.int(1), digest: $0.optionalText(2)) }
    }

    package func insert(_ message: NewMessage, announced: Bool) throws -> Int {
        guard let seq = try connection.query(
            """
            INSERT INTO messages (id, app_id, content, audience, state, send_at, audience_size, created_at, pacing)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING seq
            """,
            [.text(message.id), .text(message.appID), .text(message.storedContent), .text(message.storedAudience), .text(MessageState.scheduled.rawValue),
             .int(message.sendAt), .int(message.audienceSize), .int(message.createdAt),
             .optionalText(try message.pacing.map(StoredJSON.encode))]).first({ $0.int(0) }) else {
            throw StorageError.corrupt("message insert returned nothing")
        }
        if announced { try store.announce(.fanOut, on: connection) }
        return seq
    }

    package func writeDeliveries(_ post: PostedMessage, stored: MessageRecord, claim: FanOutClaim?) throws -> PostedMessage.Outcome {
        defer { targets = nil }
        let (batch, stamp, changed) = try store.writeFanOutBatch(
            connection, messageSeq: stored.seq, audience: post.message.audience, limit: PostingPlan.reading(post), now: post.now, claim: claim,
            plan: post.plan, inserted: stored, targets: targets)
        if batch.written > 0 { stamped = max(stamped ?? stamp, stamp) }
        // What the batch changed (sending, or completed when nobody matched), as it wrote it: no read.
        var after = stored
        after.state = changed.state
        after.finishedAt = changed.finishedAt
        return PostedMessage.Outcome(record: after, replayed: false, written: batch.written, claimed: batch.claimed, counts: batch.counts)
    }

    // MARK: Ending

    /// One statement with the events. A message's batch checks each delivery's state again, so
    /// one another transaction ended meanwhile is left out.
    package func end(_ end: PendingEnd) throws -> [EndedDelivery] {
        let pending = "state IN (\(Lifecycle.pendingSQL))"
        let (condition, values): (String, [SQLParameter]) = switch end.scope {
        case .device(let seq): ("device_seq = $4 AND \(pending)", [.int(seq)])
        case .signedOut(let seq):
            ("device_seq = $4 AND \(pending) AND EXISTS (SELECT 1 FROM messages m WHERE m.seq = deliveries.message_seq AND left(m.audience, $5) = $6)",
             [.int(seq), .int(Rows.userAudiencePrefix.count), .text(Rows.userAudiencePrefix)])
        case .message(let seq, let limit):
            ("(seq, created_at) IN (SELECT seq, created_at FROM deliveries WHERE message_seq = $4 AND \(pending) LIMIT $5) AND \(pending)", [.int(seq), .int(limit)])
        }
        return try connection.query(
            """
            WITH ended AS (
                UPDATE deliveries SET state = $1, due_at = NULL, updated_at = $2 WHERE \(condition) RETURNING seq, message_seq, created_at),
            logged AS (
                INSERT INTO delivery_events (delivery_seq, delivery_created_at, event, at, detail) SELECT seq, created_at, $1, $2, $3 FROM ended)
            SELECT seq, message_seq FROM ended
            """, [.text(end.state.rawValue), .int(end.now), .optionalText(end.detail)] + values).map { EndedDelivery(seq: $0.int(0), messageSeq: $0.int(1)) }
    }

    package func complete(messageSeqs: Set<Int>, now: Int) throws {
        try connection.run(PostgresStore.completion, [.int(now), .text(JSON.text(messageSeqs.sorted()))])
    }

    // MARK: Forgetting

    package func userAudiences(appID: String, after afterSeq: Int, upTo lastSeq: Int, containing needle: String) throws -> [(seq: Int, audience: String)] {
        try connection.query(
            """
            SELECT seq, audience FROM messages
            WHERE app_id = $1 AND seq > $2 AND seq <= $3 AND left(audience, $4) = $5 AND strpos(audience, $6) > 0
            FOR UPDATE
            """, [.text(appID), .int(afterSeq), .int(lastSeq), .int(Rows.userAudiencePrefix.count), .text(Rows.userAudiencePrefix), .text(needle)]
        ).map { (seq: $0.int(0), audience: $0.text(1)) }
    }

}

extension PostgresStore: SQLStore {
    /// After the commit, a new week's first deliveries get their statistics
    /// (``giveHistoryStatistics(at:)``), as after a fan-out batch.
    package func inTransaction<T: Sendable>(_ body: @escaping @Sendable (PostgresStatements) throws -> T) async throws -> T {
        let (result, stamped) = try await pool.transaction { connection in
            let statements = PostgresStatements(store: self, connection: connection)
            return (try body(statements), statements.stamped)
        }
        if let stamped { await giveHistoryStatistics(at: stamped) }
        return result
    }

    /// Completion runs after the commit (``completeAfterCommit(messageSeqs:now:)`` says why).
    package var completesAfterCommit: Bool { true }
}
