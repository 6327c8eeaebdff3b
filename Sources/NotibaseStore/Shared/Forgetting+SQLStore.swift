package import NotibaseDomain
/// Cancelling a message and forgetting a user in audiences, for every ``SQLStore``.
extension SQLStore {
    /// ``Storage/markCancelled(appID:id:now:)``: a message that has not finished is marked
    /// `cancelled` (its deliveries are ended in batches afterwards, ``PendingEnd``); answers the
    /// message as it is afterwards, or nil when the app has no such message.
    package func markCancelled(appID: String, id: String, now: Int) async throws -> MessageRecord? {
        try await inTransaction { sql in
            guard let message = try sql.lockedMessage(appID: appID, id: id) else { return nil }
            guard Lifecycle.unfinished.contains(message.state) else { return message }
            try sql.cancel(seq: message.seq, now: now)
            return try sql.message(seq: message.seq)
        }
    }

    /// ``Storage/forgetUserInAudiences(appID:externalUserID:afterSeq:limit:)``: among the app's next
    /// `limit` messages, the audiences that list the user are rewritten without it
    /// (``Forgetting/rewrites(_:forgetting:)``) and the bytes saved given back to the app's count.
    package func forgetUserInAudiences(appID: String, externalUserID: String, afterSeq: Int, limit: Int) async throws -> (rewritten: Int, lastSeq: Int?) {
        let needle = try Rows.storedUserID(externalUserID)
        let step = try await inTransaction { sql -> ForgettingStep in
            guard let last = try sql.lastMessageSeq(appID: appID, afterSeq: afterSeq, limit: limit) else { return ForgettingStep(rewritten: 0, lastSeq: nil) }
            let candidates = try sql.userAudiences(appID: appID, after: afterSeq, upTo: last, containing: needle)
            let (rewrites, saved) = try Forgetting.rewrites(candidates, forgetting: externalUserID)
            for rewrite in rewrites { try sql.rewriteAudience(seq: rewrite.seq, rewrite.audience) }
            if saved != 0 { try sql.giveBack(storedBytes: saved, appID: appID) }
            return ForgettingStep(rewritten: rewrites.count, lastSeq: last)
        }
        return (step.rewritten, step.lastSeq)
    }
}

private struct ForgettingStep: Sendable {
    package var rewritten: Int
    package var lastSeq: Int?
}
