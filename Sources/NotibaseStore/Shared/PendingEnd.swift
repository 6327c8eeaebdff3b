package import NotibaseCore
package import NotibaseDomain

/// Deliveries not yet sent that end at once, all alike: which ones, as what, with what detail on
/// their events. Ending them, then completing their messages, is one step for every
/// ``SQLStore`` (``SQLStore/endingPending(now:_:)``); a backend writes only the statements.
package struct PendingEnd: Sendable {
    package enum Scope: Sendable {
        /// Every one of a device's (it is being deleted).
        case device(seq: Int)
        /// A device's in messages sent to external users (it signed out of its user).
        case signedOut(deviceSeq: Int)
        /// Up to `limit` of a message's (it was cancelled or failed: ``Ending``).
        case message(seq: Int, limit: Int)
    }

    package var scope: Scope
    package var state: DeliveryState
    /// The events' detail (``DeliveryEventDetail``, stored).
    package var detail: String?
    package var now: Int
}

/// A delivery a ``PendingEnd`` ended, and its message.
package struct EndedDelivery: Sendable {
    package var seq: Int
    package var messageSeq: Int

    package init(seq: Int, messageSeq: Int) {
        self.seq = seq
        self.messageSeq = messageSeq
    }
}

extension SQLStore {
    /// ``Storage/deleteDevice(appID:id:now:)``: its deliveries not yet sent fail, then it is
    /// deleted (the rest stay in their messages' logs, detached from it), so nothing meant for it
    /// is ever sent anywhere else.
    package func deleteDevice(appID: String, id: String, now: Int) async throws -> Bool {
        try await endingPending(now: now) { sql in
            guard let seq = try sql.deviceSeq(appID: appID, id: id) else { return nil }
            let ended = try sql.end(PendingEnd(scope: .device(seq: seq), state: .failed, detail: Rows.deviceDeletedDetail, now: now))
            try sql.deleteDevice(seq: seq)
            return ended
        } != nil
    }

    /// ``Storage/signOut(appID:platform:token:now:)``: its deliveries not yet sent in messages to
    /// users are cancelled; returns them (nil: no such device).
    package func signOut(appID: String, platform: Platform, token: String, now: Int) async throws -> [Int]? {
        try await endingPending(now: now) { sql in
            guard let seq = try sql.signOut(appID: appID, platform: platform, token: token, now: now) else { return nil }
            return try sql.end(PendingEnd(scope: .signedOut(deviceSeq: seq), state: .cancelled, detail: Rows.signedOutDetail, now: now))
        }?.map(\.seq)
    }

    /// ``Storage/endPendingDeliveries(messageSeq:limit:now:)``: up to `limit` of a cancelled or
    /// failed message's deliveries not yet sent end as it did; returns how many (a batch may come
    /// back short while more are left: callers go on until 0). Nothing completes: the message
    /// finished when it stopped.
    package func endPendingDeliveries(messageSeq: Int, limit: Int, now: Int) async throws -> Int {
        try await inTransaction { sql in
            guard let outcome = try sql.ending(ofMessage: messageSeq) else { return 0 }
            return try sql.end(PendingEnd(scope: .message(seq: messageSeq, limit: limit), state: outcome.state, detail: outcome.detail, now: now)).count
        }
    }

    /// The one step: in one transaction, `end` ends deliveries (nil: it found nothing to end);
    /// then their messages that have nothing left to send complete (``completing(now:_:)``).
    package func endingPending(now: Int, _ end: @escaping @Sendable (Statements) throws -> [EndedDelivery]?) async throws -> [EndedDelivery]? {
        try await completing(now: now) { sql in
            let ended = try end(sql)
            return (ended, Set(ended?.map(\.messageSeq) ?? []))
        }
    }

    /// `body` in one transaction; then the messages it names that have nothing left to send
    /// complete, inside that transaction or after its commit as the backend says
    /// (``completesAfterCommit``). A completion after the commit that fails leaves the
    /// transaction's writes standing: the fan-out's sweep completes them.
    package func completing<T: Sendable>(now: Int, _ body: @escaping @Sendable (Statements) throws -> (T, messages: Set<Int>)) async throws -> T {
        let afterCommit = completesAfterCommit
        let (result, messages) = try await inTransaction { sql in
            let (result, messages) = try body(sql)
            if !afterCommit, !messages.isEmpty { try sql.complete(messageSeqs: messages, now: now) }
            return (result, messages)
        }
        if afterCommit, !messages.isEmpty { _ = try? await inTransaction { sql in try sql.complete(messageSeqs: messages, now: now) } }
        return result
    }
}
