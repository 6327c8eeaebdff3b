import NotibaseDomain

/// Messages completed (``Lifecycle/completion(time:messages:hasPending:)``) in each backend's
/// fastest way of asking for a pending delivery.
extension SQLExecutor {
    /// Marks the `sending` messages among `messageSeqs` with no delivery left to send as
    /// completed: SQLite asks a message at a time, by its key; PostgreSQL all at once.
    package func complete(messageSeqs: Set<Int>, now: Int) throws {
        switch dialect {
        case .sqlite: for seq in messageSeqs { _ = try write(CompletionSQL.sqliteOne, [.int(now), .int(seq)]) }
        case .postgres: _ = try write(CompletionSQL.postgresSome, [.int(now), .text(JSON.text(messageSeqs.sorted()))])
        }
    }

    /// Completes every message with nothing left to send; how many.
    package func completeFinishedMessages(now: Int) throws -> Int {
        try write(dialect == .sqlite ? CompletionSQL.sqliteAll : CompletionSQL.postgresAll, [.int(now)])
    }
}

extension FanOutStore where Self: SQLReadStore {
    package func completeFinishedMessages(now: Int) async throws -> Int {
        try await writing { try $0.completeFinishedMessages(now: now) }
    }
}

/// The statements, made once.
package enum CompletionSQL {
    /// One message: `?1` the time, `?2` its number.
    static let sqliteOne = Lifecycle.completion(time: "?1", messages: "seq = ?2", hasPending: sqliteHasPending("?2"))
    static let sqliteAll = Lifecycle.completion(time: "?1", messages: nil, hasPending: sqliteHasPending("messages.seq"))
    /// Some messages: `$1` the time, `$2` their numbers as a JSON array. Run after the outcomes'
    /// commit, or inside a transaction only for a message that transaction stored (no other can
    /// have written its deliveries' outcomes).
    package static let postgresSome = Lifecycle.completion(time: "$1", messages: "seq IN \(SQLDialect.postgres.numbers(in: "$2"))", hasPending: postgresHasPending)
    static let postgresAll = Lifecycle.completion(time: "$1", messages: nil, hasPending: postgresHasPending)

    private static func sqliteHasPending(_ message: String) -> String {
        "EXISTS (SELECT 1 FROM deliveries WHERE message_seq = \(message) AND state IN (\(Lifecycle.pendingSQL)))"
    }

    /// Whether the message in `messages.seq` has a delivery left to send: one probe per pending
    /// state, each the first entry down the `(message_seq, state, platform)` index. Not `EXISTS`,
    /// which PostgreSQL plans as a join: from a young week's statistics (every delivery queued)
    /// that join read the whole week, once per recorded batch. A probe ordered by the index's next
    /// column is one step down it however the statistics lean (a scan would have to sort them all).
    private static let postgresHasPending = DeliveryState.allCases.filter(Lifecycle.pending.contains).map {
        "(SELECT 1 FROM deliveries WHERE message_seq = messages.seq AND state = '\($0.rawValue)' ORDER BY platform LIMIT 1) IS NOT NULL"
    }.joined(separator: " OR ")
}

extension EndingStatements where Self: SQLStatements {
    package func complete(messageSeqs: Set<Int>, now: Int) throws { try executor.complete(messageSeqs: messageSeqs, now: now) }
}
