package import NotibaseDomain
/// Storing posted messages, for every ``SQLStore``: the rules of ``PostingPlan`` run on the
/// store's statements (``PostingStatements``), a group in one transaction (decision 0030).
extension SQLStore {
    /// ``Storage/createMessagesWithDeliveries(_:claim:)``: each post answered on its own; a post
    /// refused by its quota or its idempotency key fails alone (refused before it wrote anything,
    /// so the others stand). The group's stored bytes are added last, one guarded update per app:
    /// if concurrent transactions took the room meanwhile, the group throws
    /// ``StoredBytesExceeded`` and changes nothing.
    package func createMessagesWithDeliveries(_ posts: [PostedMessage], claim: FanOutClaim?) async throws -> [Result<PostedMessage.Outcome, any Error>] {
        try await inTransaction { sql in
            var plan = PostingPlan(claim: claim)
            let outcomes = try posts.map { post -> Result<PostedMessage.Outcome, any Error> in
                do {
                    return .success(try Posting.store(post, on: sql, plan: &plan))
                } catch let refused as StoredBytesExceeded {
                    return .failure(refused)
                } catch let refused as IdempotencyKeyReused {
                    return .failure(refused)
                }
            }
            try Posting.addStoredBytes(plan, on: sql)
            return outcomes
        }
    }

    /// ``Storage/createMessage(_:idempotencyKey:window:)``: a message whose deliveries the
    /// fan-out loop writes.
    package func createMessage(_ message: NewMessage, idempotencyKey: String?, window: Int) async throws -> (MessageRecord, replayed: Bool) {
        let stored = try await inTransaction { sql in
            var plan = PostingPlan(claim: nil)
            let stored = try Posting.insert(message, key: idempotencyKey, window: window, announced: true, on: sql, plan: &plan)
            try Posting.addStoredBytes(plan, on: sql)
            return Stored(record: stored.0, replayed: stored.replayed)
        }
        return (stored.record, stored.replayed)
    }
}

private struct Stored: Sendable {
    package var record: MessageRecord
    package var replayed: Bool
}

/// The steps of storing one post, the same on every backend.
package enum Posting {
    /// One post of a group, inside its transaction.
    package static func store(_ post: PostedMessage, on sql: some PostingStatements, plan: inout PostingPlan) throws -> PostedMessage.Outcome {
        var message = post.message
        message.audienceSize = try sql.audienceSize(of: message, reading: PostingPlan.reading(post))
        let writesNow = PostingPlan.writesNow(post, audienceSize: message.audienceSize)
        let (stored, replayed) = try insert(message, key: post.idempotencyKey, window: post.window, announced: !writesNow, on: sql, plan: &plan)
        guard !replayed, writesNow else { return PostedMessage.Outcome(record: stored, replayed: replayed) }
        let outcome = try sql.writeDeliveries(post, stored: stored, claim: plan.nextClaim)
        plan.claimed(outcome.claimed.count)
        return outcome
    }

    /// The message stored, or the one its idempotency key names; admitted against its app's quota.
    package static func insert(
        _ message: NewMessage, key: String?, window: Int, announced: Bool, on sql: some PostingStatements, plan: inout PostingPlan
    ) throws -> (MessageRecord, replayed: Bool) {
        if let key, let earlier = try sql.idempotencyKey(appID: message.appID, key: key), PostingPlan.looksUp(earlier, for: message, window: window),
           let replayed = try PostingPlan.replay(earlier, of: message, found: sql.message(appID: message.appID, id: earlier.messageID)) {
            return (replayed, true)
        }
        if plan.needsStoredBytes(for: message) { plan.read(storedBytes: try sql.storedBytes(appID: message.appID), appID: message.appID) }
        try plan.admit(message)
        let seq = try sql.insert(message, announced: announced)
        if let key { try sql.recordKey(key, for: message) }  // after the message: the key points at it
        return (message.record(seq: seq), false)
    }

    /// The group's stored bytes, one guarded update per app; throws ``StoredBytesExceeded`` when
    /// another transaction took the room a post of the group was admitted against.
    package static func addStoredBytes(_ plan: PostingPlan, on sql: some PostingStatements) throws {
        for addition in plan.additions {
            guard try !sql.addStoredBytes(appID: addition.appID, addition.bytes, ceiling: addition.ceiling) else { continue }
            throw StoredBytesExceeded(used: try sql.storedBytes(appID: addition.appID), limit: addition.limit ?? 0, message: addition.bytes)
        }
    }
}
