package import NotibaseDomain
import NotibaseStore

extension PostgresStore {
    package func audienceByTimeZone(appID: String, _ audience: Audience) async throws -> [String?: Int] {
        let source = audience.source(.postgres, first: 2)
        return try await reading(app: appID, bulk: true) { connection in
            Dictionary(uniqueKeysWithValues: try connection.rows(
                """
                SELECT devices.time_zone, count(*) FROM \(source.from)
                WHERE devices.app_id = $1 AND devices.active = 1 AND \(source.condition) GROUP BY devices.time_zone
                """, [.text(appID)] + source.values) { ($0.optionalText(0), $0.int(1)) })
        }
    }

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
        _ = try? await pool.withConnection { try $0.complete(messageSeqs: messageSeqs, now: now) }
    }
}
