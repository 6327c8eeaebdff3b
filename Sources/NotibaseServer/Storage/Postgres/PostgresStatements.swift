import NotibaseCore

/// The statements of the rules written once (``SQLStore``), in PostgreSQL's dialect, on one
/// connection inside its transaction.
final class PostgresStatements: PostingStatements, EndingStatements, ForgettingStatements {
    private let store: PostgresStore
    private let connection: PostgresConnection
    /// The devices ``audienceSize(of:reading:)`` read, kept for the post's deliveries: one
    /// statement where a count and a read took two.
    private var targets: [FanOutTarget]?
    /// When the latest deliveries written were stamped (their week gets its statistics after the commit).
    private(set) var stamped: Int?

    init(store: PostgresStore, connection: PostgresConnection) {
        self.store = store
        self.connection = connection
    }

    // MARK: Posting

    func audienceSize(of message: NewMessage, reading: Int) throws -> Int {
        let targets = try PostgresStore.fanOutTargets(connection, appID: message.appID, audience: message.audience, after: 0, limit: reading)
        self.targets = targets
        return targets.count < reading ? targets.count : try PostgresStore.audienceSize(connection, appID: message.appID, message.audience)
    }

    /// The key is locked for the transaction, so two nodes given the same key create one message.
    func idempotencyKey(appID: String, key: String) throws -> StoredIdempotencyKey? {
        try connection.run("SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))", [.text(appID), .text(key)])
        return try connection.query("SELECT message_id, created_at, request_digest FROM idempotency_keys WHERE app_id = $1 AND key = $2", [.text(appID), .text(key)])
            .first { StoredIdempotencyKey(messageID: $0.text(0), createdAt: $0.int(1), digest: $0.optionalText(2)) }
    }

    func message(appID: String, id: String) throws -> MessageRecord? {
        try connection.query("SELECT \(Rows.messageColumns) FROM messages WHERE id = $1 AND app_id = $2", [.text(id), .text(appID)]).first(Rows.message)
    }

    func storedBytes(appID: String) throws -> Int {
        try connection.query("SELECT stored_bytes FROM apps WHERE id = $1", [.text(appID)]).first { $0.int(0) } ?? 0
    }

    func insert(_ message: NewMessage, announced: Bool) throws -> Int {
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

    func recordKey(_ key: String, for message: NewMessage) throws {
        try connection.run(
            """
            INSERT INTO idempotency_keys (app_id, key, message_id, created_at, request_digest) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (app_id, key) DO UPDATE
            SET message_id = excluded.message_id, created_at = excluded.created_at, request_digest = excluded.request_digest
            """, [.text(message.appID), .text(key), .text(message.id), .int(message.createdAt), .optionalText(message.requestDigest)])
    }

    func writeDeliveries(_ post: PostedMessage, stored: MessageRecord, claim: FanOutClaim?) throws -> PostedMessage.Outcome {
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

    func addStoredBytes(appID: String, _ bytes: Int, ceiling: Int?) throws -> Bool {
        try connection.run(
            "UPDATE apps SET stored_bytes = stored_bytes + $1 WHERE id = $2 AND ($3::bigint IS NULL OR stored_bytes <= $3::bigint)",
            [.int(bytes), .text(appID), .optionalInt(ceiling)]) == 1
    }

    // MARK: Ending

    /// The row stays locked until the commit.
    func deviceSeq(appID: String, id: String) throws -> Int? {
        try connection.query("SELECT seq FROM devices WHERE id = $1 AND app_id = $2 FOR UPDATE", [.text(id), .text(appID)]).first { $0.int(0) }
    }

    /// The foreign key detaches its other deliveries.
    func deleteDevice(seq: Int) throws {
        try connection.run("DELETE FROM devices WHERE seq = $1", [.int(seq)])
    }

    /// The row stays locked until the commit: a registration of the same token waits, then writes
    /// over a device with no user.
    func signOut(appID: String, platform: Platform, token: String, now: Int) throws -> Int? {
        try connection.query(
            "UPDATE devices SET external_user_id = NULL, updated_at = $1 WHERE app_id = $2 AND platform = $3 AND token = $4 RETURNING seq",
            [.int(now), .text(appID), .text(platform.rawValue), .text(token)]).first { $0.int(0) }
    }

    /// The row stays locked until the commit: a fan-out batch in progress is waited for; the next
    /// one finds the message cancelled and writes nothing.
    func lockedMessage(appID: String, id: String) throws -> MessageRecord? {
        try connection.query("SELECT \(Rows.messageColumns) FROM messages WHERE id = $1 AND app_id = $2 FOR UPDATE", [.text(id), .text(appID)]).first(Rows.message)
    }

    func message(seq: Int) throws -> MessageRecord? {
        try connection.query("SELECT \(Rows.messageColumns) FROM messages WHERE seq = $1", [.int(seq)]).first(Rows.message)
    }

    func cancel(seq: Int, now: Int) throws {
        try connection.run("UPDATE messages SET state = 'cancelled', finished_at = $1 WHERE seq = $2", [.int(now), .int(seq)])
    }

    func ending(ofMessage seq: Int) throws -> Ending.Outcome? {
        try connection.query("SELECT state, failure_reason FROM messages WHERE seq = $1", [.int(seq)])
            .first { Ending.Outcome(state: $0.text(0), reason: $0.optionalText(1)) } ?? nil
    }

    /// One statement with the events. A message's batch checks each delivery's state again, so
    /// one another transaction ended meanwhile is left out.
    func end(_ end: PendingEnd) throws -> [EndedDelivery] {
        let pending = "state IN (\(Lifecycle.pendingSQL))"
        let (condition, values): (String, [PostgresValue]) = switch end.scope {
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

    func complete(messageSeqs: Set<Int>, now: Int) throws {
        try connection.run(PostgresStore.completion, [.int(now), .text(JSON.text(messageSeqs.sorted()))])
    }

    // MARK: Forgetting

    func lastMessageSeq(appID: String, afterSeq: Int, limit: Int) throws -> Int? {
        try connection.query(
            "SELECT max(seq) FROM (SELECT seq FROM messages WHERE app_id = $1 AND seq > $2 ORDER BY seq LIMIT $3) AS looked_at",
            [.text(appID), .int(afterSeq), .int(limit)]).first { $0.isNull(0) ? nil : $0.int(0) } ?? nil
    }

    func userAudiences(appID: String, after afterSeq: Int, upTo lastSeq: Int, containing needle: String) throws -> [(seq: Int, audience: String)] {
        try connection.query(
            """
            SELECT seq, audience FROM messages
            WHERE app_id = $1 AND seq > $2 AND seq <= $3 AND left(audience, $4) = $5 AND strpos(audience, $6) > 0
            FOR UPDATE
            """, [.text(appID), .int(afterSeq), .int(lastSeq), .int(Rows.userAudiencePrefix.count), .text(Rows.userAudiencePrefix), .text(needle)]
        ).map { (seq: $0.int(0), audience: $0.text(1)) }
    }

    func rewriteAudience(seq: Int, _ audience: String) throws {
        try connection.run("UPDATE messages SET audience = $1 WHERE seq = $2", [.text(audience), .int(seq)])
    }

    func giveBack(storedBytes bytes: Int, appID: String) throws {
        try connection.run("UPDATE apps SET stored_bytes = greatest(0, stored_bytes - $1) WHERE id = $2", [.int(bytes), .text(appID)])
    }
}

extension PostgresStore: SQLStore {
    /// After the commit, a new week's first deliveries get their statistics
    /// (``giveHistoryStatistics(at:)``), as after a fan-out batch.
    func inTransaction<T: Sendable>(_ body: @escaping @Sendable (PostgresStatements) throws -> T) async throws -> T {
        let (result, stamped) = try await pool.transaction { connection in
            let statements = PostgresStatements(store: self, connection: connection)
            return (try body(statements), statements.stamped)
        }
        if let stamped { await giveHistoryStatistics(at: stamped) }
        return result
    }

    /// Completion runs after the commit (``completeAfterCommit(messageSeqs:now:)`` says why).
    var completesAfterCommit: Bool { true }
}
