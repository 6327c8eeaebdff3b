import NotibaseCore

extension PostgresStore {
    func audienceSize(appID: String, _ audience: Audience) async throws -> Int {
        try await pool.withConnection { try Self.audienceSize($0, appID: appID, audience) }
    }

    static func audienceSize(_ connection: PostgresConnection, appID: String, _ audience: Audience) throws -> Int {
        let source = audience.postgresSource(parameter: 2)
        return try connection.query(
            "SELECT count(*) FROM \(source.from) WHERE devices.app_id = $1 AND devices.active = 1 AND \(source.condition)",
            [.text(appID)] + source.values)
            .first { $0.int(0) } ?? 0
    }

    func matchedExternalUsers(appID: String, _ users: [String]) async throws -> Int {
        let source = Audience.externalUsers(users).postgresSource(parameter: 2)
        return try await pool.withConnection {
            try $0.query(
                "SELECT count(DISTINCT devices.external_user_id) FROM \(source.from) WHERE devices.app_id = $1 AND devices.active = 1",
                [.text(appID)] + source.values).first { $0.int(0) } ?? 0
        }
    }

    func audienceReaches(appID: String, _ audience: Audience, platform: Platform) async throws -> Bool {
        let source = audience.postgresSource(parameter: 3)
        return try await pool.withConnection {
            try $0.query(
                "SELECT 1 FROM \(source.from) WHERE devices.app_id = $1 AND devices.active = 1 AND devices.platform = $2 AND \(source.condition) LIMIT 1",
                [.text(appID), .text(platform.rawValue)] + source.values).first { $0.int(0) } != nil
        }
    }

    func audienceByTimeZone(appID: String, _ audience: Audience) async throws -> [String?: Int] {
        let source = audience.postgresSource(parameter: 2)
        let rows = try await pool.withConnection {
            try $0.query(
                """
                SELECT devices.time_zone, count(*) FROM \(source.from)
                WHERE devices.app_id = $1 AND devices.active = 1 AND \(source.condition) GROUP BY devices.time_zone
                """,
                [.text(appID)] + source.values).map { ZoneCount(zone: $0.optionalText(0), count: $0.int(1)) }
        }
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.zone, $0.count) })
    }

    private struct ZoneCount: Sendable {
        var zone: String?
        var count: Int
    }

    func waitingDeliveries(messageSeq: Int, now: Int) async throws -> (count: Int, lastDueAt: Int?) {
        let waiting = try await pool.withConnection {
            try $0.query(
                "SELECT count(*), max(due_at) FROM deliveries WHERE message_seq = $1 AND state = 'queued' AND attempts = 0 AND due_at > $2",
                [.int(messageSeq), .int(now)]).first { Waiting(count: $0.int(0), last: $0.optionalInt(1)) }
        }
        return (waiting?.count ?? 0, waiting?.last)
    }

    private struct Waiting: Sendable {
        var count: Int
        var last: Int?
    }

    /// Stores a new message, or returns the one stored under the same idempotency key within
    /// `window` (the key's row is locked, so two nodes given the same key create one message);
    /// throws ``IdempotencyKeyReused`` when that was another request (another digest).
    func createMessage(_ message: NewMessage, idempotencyKey: String?, window: Int) async throws -> (MessageRecord, replayed: Bool) {
        try await pool.transaction { try self.insertMessage($0, message, idempotencyKey: idempotencyKey, window: window) }
    }

    /// ``Storage/createMessagesWithDeliveries(_:claim:)``: the group in one transaction, on one
    /// connection: one commit for all, and the app's row (its stored bytes) locked once for all
    /// of them, where one transaction each made one app's sends wait for each other's commits.
    func createMessagesWithDeliveries(_ posts: [PostedMessage], claim: FanOutClaim?) async throws -> [Result<PostedMessage.Outcome, any Error>] {
        let (outcomes, stamped) = try await pool.transaction { connection -> ([Result<PostedMessage.Outcome, any Error>], Int?) in
            var room = claim?.limit ?? 0
            var stamped: Int?
            let bytes = GroupBytes()
            let outcomes = try posts.map { post -> Result<PostedMessage.Outcome, any Error> in
                do {
                    let (outcome, at) = try self.createWithDeliveries(
                        connection, post, claim: claim.flatMap { room > 0 ? FanOutClaim(lease: $0.lease, limit: room) : nil }, bytes: bytes)
                    room -= outcome.claimed.count
                    if let at { stamped = max(stamped ?? at, at) }
                    return .success(outcome)
                } catch let refused as StoredBytesExceeded {
                    return .failure(refused)  // refused before it wrote anything: the others stand
                } catch let refused as IdempotencyKeyReused {
                    return .failure(refused)  // likewise
                }
            }
            // The group's bytes, one update per app, last: the app's row is held from here to the
            // commit only, so groups committing at once on several connections overlap all the
            // rest of their work.
            for (app, added) in bytes.added.sorted(by: { $0.key < $1.key }) where added != 0 {
                try connection.run("UPDATE apps SET stored_bytes = stored_bytes + $1 WHERE id = $2", [.int(added), .text(app)])
            }
            return (outcomes, stamped)
        }
        // As after a fan-out batch: a new week's first rows get their statistics.
        if let stamped { await giveHistoryStatistics(at: stamped) }
        return outcomes
    }

    /// One message of a group, inside its transaction, and when its deliveries were stamped (nil:
    /// none were written).
    private func createWithDeliveries(
        _ connection: PostgresConnection, _ post: PostedMessage, claim: FanOutClaim?, bytes: GroupBytes
    ) throws -> (PostedMessage.Outcome, Int?) {
        var message = post.message
        // The devices its deliveries go to are read first, and are its audience when there are no
        // more than it writes at once: one statement where a count and a read took two.
        let targets = try Self.fanOutTargets(connection, appID: message.appID, audience: message.audience, after: 0, limit: post.limit + 1)
        message.audienceSize = targets.count <= post.limit ? targets.count : try Self.audienceSize(connection, appID: message.appID, message.audience)
        let writesNow = message.audienceSize <= post.limit
        let (stored, replayed) = try insertMessage(
            connection, message, idempotencyKey: post.idempotencyKey, window: post.window, group: bytes, announce: !writesNow)
        guard !replayed, writesNow else { return (PostedMessage.Outcome(record: stored, replayed: replayed), nil) }
        let (batch, stamped, changed) = try writeFanOutBatch(
            connection, messageSeq: stored.seq, audience: message.audience, limit: post.limit + 1, now: post.now, claim: claim, plan: post.plan,
            inserted: stored, targets: targets)
        // What the batch changed (sending, or completed when nobody matched), as it wrote it: no read.
        var after = stored
        after.state = changed.state
        after.finishedAt = changed.finishedAt
        let outcome = PostedMessage.Outcome(record: after, replayed: false, written: batch.written, claimed: batch.claimed, counts: batch.counts)
        return (outcome, batch.written > 0 ? stamped : nil)
    }

    /// The stored bytes a group of posts adds to its apps (``createMessagesWithDeliveries(_:claim:)``):
    /// each app's count is read once, unlocked, each post checked against it and what the group
    /// added before it, and the group's additions written at the end. Groups committing at the
    /// same moment (other connections, other nodes) may each see room the other takes: an app
    /// can pass its quota by what those store at that moment, a few messages, where one update
    /// per message made every send of the app wait for the one before it to commit.
    private final class GroupBytes {
        /// Each app's count as read.
        var stored: [String: Int] = [:]
        /// What the group's posts add to it.
        var added: [String: Int] = [:]
    }

    /// `group`: the bytes are counted in the group's tally (written at its end), not in the app's
    /// row at once.
    /// The message stored, or the one its idempotency key names: inside a transaction.
    /// `announce`: whether the fan-out loops of every node are told (not when the caller writes
    /// the message's deliveries itself, in this transaction).
    private func insertMessage(
        _ connection: PostgresConnection, _ message: NewMessage, idempotencyKey: String?, window: Int, group: GroupBytes? = nil, announce: Bool = true
    ) throws -> (MessageRecord, replayed: Bool) {
        if let key = idempotencyKey {
            try connection.run("SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))", [.text(message.appID), .text(key)])
            let earlier = try connection.query(
                "SELECT message_id, created_at, request_digest FROM idempotency_keys WHERE app_id = $1 AND key = $2",
                [.text(message.appID), .text(key)]).first { StoredIdempotencyKey(messageID: $0.text(0), createdAt: $0.int(1), digest: $0.optionalText(2)) }
            if let earlier, earlier.createdAt > message.createdAt - window,
               let stored = try connection.query(
                "SELECT \(Rows.messageColumns) FROM messages WHERE id = $1 AND app_id = $2", [.text(earlier.messageID), .text(message.appID)]).first(Rows.message) {
                try earlier.check(message)
                return (stored, true)
            }
        }
        // The app's quota first: a message that does not fit changes nothing.
        if let group {
            if let limit = message.storedBytesLimit {
                let stored = try group.stored[message.appID]
                    ?? connection.query("SELECT stored_bytes FROM apps WHERE id = $1", [.text(message.appID)]).first { $0.int(0) } ?? 0
                group.stored[message.appID] = stored
                let used = stored + group.added[message.appID, default: 0]
                guard used + message.storedBytes <= limit else {
                    throw StoredBytesExceeded(used: used, limit: limit, message: message.storedBytes)
                }
            }
            group.added[message.appID, default: 0] += message.storedBytes
        } else {
            guard try connection.run(
                "UPDATE apps SET stored_bytes = stored_bytes + $1 WHERE id = $2 AND ($3::bigint IS NULL OR stored_bytes + $1 <= $3::bigint)",
                [.int(message.storedBytes), .text(message.appID), .optionalInt(message.storedBytesLimit)]) == 1 else {
                let used = try connection.query("SELECT stored_bytes FROM apps WHERE id = $1", [.text(message.appID)]).first { $0.int(0) } ?? 0
                throw StoredBytesExceeded(used: used, limit: message.storedBytesLimit ?? 0, message: message.storedBytes)
            }
        }
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
        if announce { try self.announce(.fanOut, on: connection) }
        if let key = idempotencyKey {
            try connection.run(
                """
                INSERT INTO idempotency_keys (app_id, key, message_id, created_at, request_digest) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (app_id, key) DO UPDATE
                SET message_id = excluded.message_id, created_at = excluded.created_at, request_digest = excluded.request_digest
                """, [.text(message.appID), .text(key), .text(message.id), .int(message.createdAt), .optionalText(message.requestDigest)])
        }
        return (message.record(seq: seq), false)
    }

    func messages(seqs: [Int]) async throws -> [MessageRecord] {
        try await pool.withConnection {
            try $0.query(
                "SELECT \(Rows.messageColumns) FROM messages WHERE seq = ANY($1::bigint[])",
                [.text(PostgresArray.bigints(seqs))]).map(Rows.message)
        }
    }

    func message(appID: String, id: String) async throws -> MessageRecord? {
        try await pool.withConnection {
            try $0.query("SELECT \(Rows.messageColumns) FROM messages WHERE id = $1 AND app_id = $2", [.text(id), .text(appID)]).first(Rows.message)
        }
    }

    func message(seq: Int) async throws -> MessageRecord? {
        try await pool.withConnection { try $0.query("SELECT \(Rows.messageColumns) FROM messages WHERE seq = $1", [.int(seq)]).first(Rows.message) }
    }

    /// A page of the app's messages, through `messages_app (app_id, seq)` in either order.
    func messages(appID: String, page: SeqPage) async throws -> [MessageRecord] {
        try await pool.withConnection {
            try $0.query(
                "SELECT \(Rows.messageColumns) FROM messages WHERE app_id = $1 AND seq \(page.comparison) $2 \(page.orderBy("seq")) LIMIT $3",
                [.text(appID), .int(page.bound), .int(page.limit)]).map(Rows.message)
        }
    }

    func messageCount(appID: String) async throws -> Int {
        try await pool.withConnection { try $0.query("SELECT count(*) FROM messages WHERE app_id = $1", [.text(appID)]).first { $0.int(0) } ?? 0 }
    }

    func deliveryCounts(messageSeq: Int) async throws -> [(state: String, platform: String, count: Int)] {
        let rows = try await pool.withConnection {
            try $0.query("SELECT state, platform, count(*) FROM deliveries WHERE message_seq = $1 GROUP BY state, platform", [.int(messageSeq)])
                .map { Count(state: $0.text(0), platform: $0.text(1), count: $0.int(2)) }
        }
        return rows.map { ($0.state, $0.platform, $0.count) }
    }

    private struct Count: Sendable {
        var state: String
        var platform: String
        var count: Int
    }

    /// Marks a message that has not finished `cancelled`, its row locked (a fan-out batch in
    /// progress is waited for; the next one finds it cancelled and writes nothing).
    func markCancelled(appID: String, id: String, now: Int) async throws -> MessageRecord? {
        try await pool.transaction { connection in
            guard let message = try connection.query(
                "SELECT \(Rows.messageColumns) FROM messages WHERE id = $1 AND app_id = $2 FOR UPDATE", [.text(id), .text(appID)]).first(Rows.message) else {
                return nil
            }
            guard Lifecycle.unfinished.contains(message.state) else { return message }
            try connection.run("UPDATE messages SET state = 'cancelled', finished_at = $1 WHERE seq = $2", [.int(now), .int(message.seq)])
            return try connection.query("SELECT \(Rows.messageColumns) FROM messages WHERE seq = $1", [.int(message.seq)]).first(Rows.message)
        }
    }

    func markFailed(seq: Int, reason: String, now: Int) async throws -> Bool {
        try await pool.withConnection {
            try $0.run(
                "UPDATE messages SET state = 'failed', failure_reason = $1, finished_at = $2 WHERE seq = $3 AND state IN (\(Lifecycle.unfinishedSQL))",
                [.text(reason), .int(now), .int(seq)]) == 1
        }
    }

    /// Ends up to `limit` deliveries not yet sent of a cancelled or failed message, with their
    /// events, in one statement. A delivery another transaction ended meanwhile is checked again
    /// and left out (so a batch can come back short while more are left: callers go on until 0).
    func endPendingDeliveries(messageSeq: Int, limit: Int, now: Int) async throws -> Int {
        try await pool.transaction { connection in
            guard let end = try connection.query(
                "SELECT state, failure_reason FROM messages WHERE seq = $1", [.int(messageSeq)]).first({ Ending.Outcome(state: $0.text(0), reason: $0.optionalText(1)) }),
                let end else { return 0 }
            return try connection.run(
                """
                WITH ended AS (
                    UPDATE deliveries SET state = $3, due_at = NULL, updated_at = $1
                    WHERE (seq, created_at) IN (
                        SELECT seq, created_at FROM deliveries WHERE message_seq = $2 AND state IN (\(Lifecycle.pendingSQL)) LIMIT $4)
                    AND state IN (\(Lifecycle.pendingSQL)) RETURNING seq, created_at)
                INSERT INTO delivery_events (delivery_seq, delivery_created_at, event, at, detail) SELECT seq, created_at, $3, $1, $5 FROM ended
                """, [.int(now), .int(messageSeq), .text(end.state.rawValue), .int(limit), .optionalText(end.detail)])
        }
    }

    /// Cancelled or failed messages with a delivery among the `window` earliest due by `now`.
    func abandonedMessages(now: Int, window: Int) async throws -> [Int] {
        try await pool.withConnection {
            try $0.query(
                """
                SELECT DISTINCT message_seq FROM (SELECT message_seq FROM deliveries WHERE due_at <= $1 ORDER BY due_at LIMIT $2) AS due
                WHERE (SELECT state FROM messages WHERE seq = due.message_seq) IN (\(Lifecycle.finishedSQL))
                """, [.int(now), .int(window)]).map { $0.int(0) }
        }
    }

    func completeFinishedMessages(now: Int) async throws -> Int {
        try await pool.withConnection {
            try $0.run(Self.completionOfAll, [.int(now)])
        }
    }

    /// Whether the message in `messages.seq` has a delivery left to send: one probe per pending
    /// state, each the first entry down the `(message_seq, state, platform)` index. Not `EXISTS`,
    /// which PostgreSQL plans as a join: from a young week's statistics (every delivery queued)
    /// that join read the whole week, once per recorded batch. A probe ordered by the index's next
    /// column is one step down it however the statistics lean (a scan would have to sort them all).
    static let hasPendingDelivery = DeliveryState.allCases.filter(Lifecycle.pending.contains).map {
        "(SELECT 1 FROM deliveries WHERE message_seq = messages.seq AND state = '\($0.rawValue)' ORDER BY platform LIMIT 1) IS NOT NULL"
    }.joined(separator: " OR ")

    /// Marks `sending` messages with no delivery left to send as completed, in a transaction of
    /// its own that begins after the caller's committed (the caller's writes stand whatever
    /// happens here: should this fail, the fan-out's sweep completes them within a second,
    /// ``FanOut/sweepInterval``).
    ///
    /// Not inside the transaction that wrote the outcomes: PostgreSQL numbers a transaction when
    /// it first writes, and the webhook feed reads in that order (``feedWebhookEvents(limit:)``).
    /// A transaction numbered before another that then committed first would, completing the
    /// message after its own writes, count that one's sends as done, and its `message.completed`
    /// would come before those sends in the stream (it did, on two nodes, a batch of 1,000 sends
    /// after the message's end). Begun after its caller's commit, the completion sees only
    /// transactions that committed before it first writes: every one is numbered before it.
    func completeAfterCommit(messageSeqs: Set<Int>, now: Int) async {
        guard !messageSeqs.isEmpty else { return }
        _ = try? await pool.withConnection { try $0.run(Self.completion, [.int(now), .text(JSON.text(messageSeqs.sorted()))]) }
    }

    /// The completion of some messages: $1 the time, $2 the messages' numbers as a JSON array.
    /// Run after the outcomes' commit (``completeAfterCommit(messageSeqs:now:)``), or inside a
    /// transaction only for a message that transaction stored (no other can have written its
    /// deliveries' outcomes).
    static let completion = Lifecycle.completion(
        time: "$1", messages: "seq IN (SELECT value::bigint FROM jsonb_array_elements_text($2::jsonb))", hasPending: hasPendingDelivery)
    /// ``Lifecycle/completion(time:messages:hasPending:)`` of every message: $1 the time.
    static let completionOfAll = Lifecycle.completion(time: "$1", messages: nil, hasPending: hasPendingDelivery)
}
