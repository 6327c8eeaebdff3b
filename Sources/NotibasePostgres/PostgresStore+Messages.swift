package import NotibaseCore
package import NotibaseDomain
import NotibaseStore

extension PostgresStore {
    package func audienceSize(appID: String, _ audience: Audience) async throws -> Int {
        try await pool.withConnection { try Self.audienceSize($0, appID: appID, audience) }
    }

    package static func audienceSize(_ connection: PostgresConnection, appID: String, _ audience: Audience) throws -> Int {
        let source = audience.postgresSource(parameter: 2)
        return try connection.query(
            "SELECT count(*) FROM \(source.from) WHERE devices.app_id = $1 AND devices.active = 1 AND \(source.condition)",
            [.text(appID)] + source.values)
            .first { $0.int(0) } ?? 0
    }

    package func matchedExternalUsers(appID: String, _ users: [String]) async throws -> Int {
        let source = Audience.externalUsers(users).postgresSource(parameter: 2)
        return try await pool.withConnection {
            try $0.query(
                "SELECT count(DISTINCT devices.external_user_id) FROM \(source.from) WHERE devices.app_id = $1 AND devices.active = 1",
                [.text(appID)] + source.values).first { $0.int(0) } ?? 0
        }
    }

    package func audienceReaches(appID: String, _ audience: Audience, platform: Platform) async throws -> Bool {
        let source = audience.postgresSource(parameter: 3)
        return try await pool.withConnection {
            try $0.query(
                "SELECT 1 FROM \(source.from) WHERE devices.app_id = $1 AND devices.active = 1 AND devices.platform = $2 AND \(source.condition) LIMIT 1",
                [.text(appID), .text(platform.rawValue)] + source.values).first { $0.int(0) } != nil
        }
    }

    package func audienceByTimeZone(appID: String, _ audience: Audience) async throws -> [String?: Int] {
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
        package var zone: String?
        package var count: Int
    }

    package func completeFinishedMessages(now: Int) async throws -> Int {
        try await pool.withConnection {
            try $0.run(Self.completionOfAll, [.int(now)])
        }
    }

    /// Whether the message in `messages.seq` has a delivery left to send: one probe per pending
    /// state, each the first entry down the `(message_seq, state, platform)` index. Not `EXISTS`,
    /// which PostgreSQL plans as a join: from a young week's statistics (every delivery queued)
    /// that join read the whole week, once per recorded batch. A probe ordered by the index's next
    /// column is one step down it however the statistics lean (a scan would have to sort them all).
    package static let hasPendingDelivery = DeliveryState.allCases.filter(Lifecycle.pending.contains).map {
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
    package func completeAfterCommit(messageSeqs: Set<Int>, now: Int) async {
        guard !messageSeqs.isEmpty else { return }
        _ = try? await pool.withConnection { try $0.run(Self.completion, [.int(now), .text(JSON.text(messageSeqs.sorted()))]) }
    }

    /// The completion of some messages: $1 the time, $2 the messages' numbers as a JSON array.
    /// Run after the outcomes' commit (``completeAfterCommit(messageSeqs:now:)``), or inside a
    /// transaction only for a message that transaction stored (no other can have written its
    /// deliveries' outcomes).
    package static let completion = Lifecycle.completion(
        time: "$1", messages: "seq IN (SELECT value::bigint FROM jsonb_array_elements_text($2::jsonb))", hasPending: hasPendingDelivery)
    /// ``Lifecycle/completion(time:messages:hasPending:)`` of every message: $1 the time.
    package static let completionOfAll = Lifecycle.completion(time: "$1", messages: nil, hasPending: hasPendingDelivery)
}
