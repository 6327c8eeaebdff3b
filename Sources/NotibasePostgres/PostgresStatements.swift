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
        let targets = try connection.fanOutTargets(appID: message.appID, message.audience, after: 0, limit: reading)
        self.targets = targets
        return targets.count < reading ? targets.count : try connection.audienceSize(appID: message.appID, message.audience)
    }

    /// The key is locked for the transaction, so two nodes given the same key create one message.
    package func idempotencyKey(appID: String, key: String) throws -> StoredIdempotencyKey? {
        try connection.run("SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))", [.text(appID), .text(key)])
        return try connection.idempotencyKey(appID: appID, key: key)
    }

    package func insert(_ message: NewMessage, announced: Bool) throws -> Int {
        let seq = try connection.insert(message)
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

    /// One statement with the events.
    package func end(_ end: PendingEnd) throws -> [EndedDelivery] {
        let (condition, values) = end.condition(.postgres, first: 4)
        return try connection.rows(
            """
            WITH ended AS (
                UPDATE deliveries SET state = $1, due_at = NULL, updated_at = $2 WHERE \(condition) RETURNING seq, message_seq, created_at),
            logged AS (
                INSERT INTO delivery_events (delivery_seq, delivery_created_at, event, at, detail) SELECT seq, created_at, $1, $2, $3 FROM ended)
            SELECT seq, message_seq FROM ended
            """, [.text(end.state.rawValue), .int(end.now), .optionalText(end.detail)] + values) { EndedDelivery(seq: $0.int(0), messageSeq: $0.int(1)) }
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
