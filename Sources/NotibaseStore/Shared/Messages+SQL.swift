package import NotibaseDomain
/// Messages read back, marked failed, and found abandoned: the statements both backends run alike
/// (``SQLExecutor``).
extension SQLExecutor {
    package func message(appID: String, id: String) throws -> MessageRecord? {
        try first("SELECT \(Rows.messageColumns) FROM messages WHERE id = \(p(1)) AND app_id = \(p(2))", [.text(id), .text(appID)], Rows.message)
    }

    package func message(seq: Int) throws -> MessageRecord? {
        try first("SELECT \(Rows.messageColumns) FROM messages WHERE seq = \(p(1))", [.int(seq)], Rows.message)
    }

    package func messages(seqs: [Int]) throws -> [MessageRecord] {
        try rows("SELECT \(Rows.messageColumns) FROM messages WHERE seq IN \(dialect.numbers(in: p(1)))", [.text(JSON.text(seqs))], Rows.message)
    }

    /// Messages whose fan-out is due or under way (oldest first): those due, through their send
    /// time, never every scheduled message (SQLite is told its index: `messages_state` would read
    /// the later ones too).
    package func messagesToFanOut(now: Int, limit: Int) throws -> [MessageRecord] {
        try rows(
            """
            SELECT \(Rows.messageColumns) FROM messages\(dialect == .sqlite ? " INDEXED BY messages_pending" : "")
            WHERE state IN (\(Lifecycle.toFanOutSQL)) AND send_at <= \(p(1)) ORDER BY send_at, seq LIMIT \(p(2))
            """, [.int(now), .int(limit)], Rows.message)
    }

    /// A page of the app's messages, through `messages_app (app_id, seq)` in either order.
    package func messages(appID: String, page: SeqPage) throws -> [MessageRecord] {
        try rows(
            "SELECT \(Rows.messageColumns) FROM messages WHERE app_id = \(p(1)) AND seq \(page.comparison) \(p(2)) \(page.orderBy("seq")) LIMIT \(p(3))",
            [.text(appID), .int(page.bound), .int(page.limit)], Rows.message)
    }

    package func messageCount(appID: String) throws -> Int {
        try count("SELECT count(*) FROM messages WHERE app_id = \(p(1))", [.text(appID)])
    }

    /// Delivery counts of a message by state and platform.
    package func deliveryCounts(messageSeq: Int) throws -> [(state: String, platform: String, count: Int)] {
        try rows("SELECT state, platform, count(*) FROM deliveries WHERE message_seq = \(p(1)) GROUP BY state, platform", [.int(messageSeq)]) {
            (state: $0.text(0), platform: $0.text(1), count: $0.int(2))
        }
    }

    /// How many of a message's deliveries wait for a later moment (never tried, due after `now`),
    /// and when the last of them is due.
    package func waitingDeliveries(messageSeq: Int, now: Int) throws -> (count: Int, lastDueAt: Int?) {
        try first(
            "SELECT count(*), max(due_at) FROM deliveries WHERE message_seq = \(p(1)) AND state = 'queued' AND attempts = 0 AND due_at > \(p(2))",
            [.int(messageSeq), .int(now)]) { (count: $0.int(0), lastDueAt: $0.optionalInt(1)) } ?? (0, nil)
    }

    /// Marks a message that cannot be fanned out or sent `failed` with `reason`; returns whether
    /// it did (its deliveries are ended in batches afterwards).
    package func markFailed(seq: Int, reason: String, now: Int) throws -> Bool {
        try write(
            """
            UPDATE messages SET state = 'failed', failure_reason = \(p(1)), finished_at = \(p(2))
            WHERE seq = \(p(3)) AND state IN (\(Lifecycle.unfinishedSQL))
            """,
            [.text(reason), .int(now), .int(seq)]) == 1
    }

    /// Cancelled or failed messages with a delivery among the `window` earliest due by `now`.
    package func abandonedMessages(now: Int, window: Int) throws -> [Int] {
        try rows(
            """
            SELECT DISTINCT message_seq FROM (SELECT message_seq FROM deliveries WHERE due_at <= \(p(1)) ORDER BY due_at LIMIT \(p(2))) AS due
            WHERE (SELECT state FROM messages WHERE seq = due.message_seq) IN (\(Lifecycle.finishedSQL))
            """, [.int(now), .int(window)]) { $0.int(0) }
    }

    /// Deliveries not yet in a final state.
    package func queueDepth() throws -> Int {
        try count("SELECT count(*) FROM deliveries WHERE due_at IS NOT NULL", [])
    }
}

extension MessagesStore where Self: SQLReadStore {
    package func message(appID: String, id: String) async throws -> MessageRecord? {
        try await reading(app: appID) { try $0.message(appID: appID, id: id) }
    }

    package func message(seq: Int) async throws -> MessageRecord? {
        try await reading { try $0.message(seq: seq) }
    }

    package func messages(appID: String, page: SeqPage) async throws -> [MessageRecord] {
        try await reading(app: appID) { try $0.messages(appID: appID, page: page) }
    }

    package func messageCount(appID: String) async throws -> Int {
        try await reading(app: appID, bulk: true) { try $0.messageCount(appID: appID) }
    }

    package func deliveryCounts(messageSeq: Int) async throws -> [(state: String, platform: String, count: Int)] {
        try await reading { try $0.deliveryCounts(messageSeq: messageSeq) }
    }

    package func waitingDeliveries(messageSeq: Int, now: Int) async throws -> (count: Int, lastDueAt: Int?) {
        try await reading { try $0.waitingDeliveries(messageSeq: messageSeq, now: now) }
    }
}

extension DeliveryQueueStore where Self: SQLReadStore {
    package func messages(seqs: [Int]) async throws -> [MessageRecord] {
        try await reading { try $0.messages(seqs: seqs) }
    }

    package func queueDepth() async throws -> Int {
        try await reading { try $0.queueDepth() }
    }
}

extension FanOutStore where Self: SQLReadStore {
    package func messagesToFanOut(now: Int, limit: Int) async throws -> [MessageRecord] {
        try await writing { try $0.messagesToFanOut(now: now, limit: limit) }
    }
}

extension EndingStore where Self: SQLReadStore {
    package func markFailed(seq: Int, reason: String, now: Int) async throws -> Bool {
        try await writing { try $0.markFailed(seq: seq, reason: reason, now: now) }
    }

    /// On the writing connection, as the sweep that asks goes on to write.
    package func abandonedMessages(now: Int, window: Int) async throws -> [Int] {
        try await writing { try $0.abandonedMessages(now: now, window: window) }
    }
}
