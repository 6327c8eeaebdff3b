package import NotibaseCore
package import NotibaseDomain

/// A store whose rules are written once above its SQL: posting messages (``PostingPlan``, run by
/// ``Posting``), ending deliveries not yet sent (``PendingEnd``), cancelling a message and
/// forgetting a user in audiences (``Forgetting``) are implemented for every backend in
/// extensions of this protocol; a backend gives only its statements (its SQL and row
/// mapping), a transaction to run them in, and when a message's completion runs.
package protocol SQLStore: Sendable {
    associatedtype Statements: PostingStatements & EndingStatements & ForgettingStatements

    /// Runs `body` on the store's statements in one transaction (a backend may run it again when
    /// its database asks for a retry).
    func inTransaction<T: Sendable>(_ body: @escaping @Sendable (Statements) throws -> T) async throws -> T

    /// Whether messages whose deliveries a transaction ended are completed after its commit, in
    /// a transaction of their own (PostgreSQL: the webhook feed reads transactions in the order
    /// they first wrote, ``PostgresStore/completeAfterCommit(messageSeqs:now:)``), rather than
    /// inside it (SQLite: one writer, so nothing commits between).
    var completesAfterCommit: Bool { get }
}

/// The statements ``Posting`` runs, on one connection inside one transaction.
package protocol PostingStatements {
    /// How many active devices of its app the message's audience matches. A backend may read the
    /// first `reading` of them and keep them for ``writeDeliveries(_:stored:claim:)``.
    func audienceSize(of message: NewMessage, reading: Int) throws -> Int
    /// The app's stored use of `key`, held until the commit where other transactions could use
    /// the key meanwhile.
    func idempotencyKey(appID: String, key: String) throws -> StoredIdempotencyKey?
    func message(appID: String, id: String) throws -> MessageRecord?
    /// The app's count of stored bytes (`apps.stored_bytes`), unlocked.
    func storedBytes(appID: String) throws -> Int
    /// Inserts the message `scheduled`; returns its number. `announced`: the fan-out loops of
    /// every node are told (not when its deliveries are written in this transaction).
    func insert(_ message: NewMessage, announced: Bool) throws -> Int
    /// Points the app's `key` at the message, over any earlier use.
    func recordKey(_ key: String, for message: NewMessage) throws
    /// Writes the deliveries of a message stored in this transaction, as `post.plan` decides a
    /// fan-out batch's, and answers what the post did.
    func writeDeliveries(_ post: PostedMessage, stored: MessageRecord, claim: FanOutClaim?) throws -> PostedMessage.Outcome
    /// Adds `bytes` to the app's count unless the count is above `ceiling` (nil: always); returns
    /// whether it did.
    func addStoredBytes(appID: String, _ bytes: Int, ceiling: Int?) throws -> Bool
}

/// The statements ``PendingEnd`` runs, on one connection inside one transaction.
package protocol EndingStatements {
    /// The app's device, locked until the commit where the backend locks rows.
    func deviceSeq(appID: String, id: String) throws -> Int?
    func deleteDevice(seq: Int) throws
    /// Takes the app's device out of its user; its number, or nil when there is no such device.
    func signOut(appID: String, platform: Platform, token: String, now: Int) throws -> Int?
    /// The app's message, locked until the commit where the backend locks rows (a fan-out batch in
    /// progress is waited for).
    func lockedMessage(appID: String, id: String) throws -> MessageRecord?
    func message(seq: Int) throws -> MessageRecord?
    /// Marks the message `cancelled` at `now`.
    func cancel(seq: Int, now: Int) throws
    /// How a message ended, nil when it did not end (or does not exist).
    func ending(ofMessage seq: Int) throws -> Ending.Outcome?
    /// Ends the deliveries `end` selects that are not yet sent, each with its event (a delivery
    /// another transaction ended meanwhile is left out); returns them.
    func end(_ end: PendingEnd) throws -> [EndedDelivery]
    /// ``Lifecycle/completion(time:messages:hasPending:)`` of these messages.
    func complete(messageSeqs: Set<Int>, now: Int) throws
}

/// The statements ``Forgetting`` runs, on one connection inside one transaction.
package protocol ForgettingStatements {
    /// The largest of the app's next `limit` message numbers after `afterSeq` (nil: none left).
    func lastMessageSeq(appID: String, afterSeq: Int, limit: Int) throws -> Int?
    /// The stored audiences of the app's messages in `afterSeq` ..< `lastSeq` + 1 that were sent
    /// to external users and contain `needle`, locked until the commit where the backend locks rows.
    func userAudiences(appID: String, after afterSeq: Int, upTo lastSeq: Int, containing needle: String) throws -> [(seq: Int, audience: String)]
    func rewriteAudience(seq: Int, _ audience: String) throws
    /// Takes `bytes` from the app's count of stored bytes, never below 0.
    func giveBack(storedBytes bytes: Int, appID: String) throws
}
