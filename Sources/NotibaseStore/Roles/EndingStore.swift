package import NotibaseDomain
/// Stopping messages: a cancel (``MessageService``), a failure and the sweep of what either left
/// (``FanOut``). Each is marked first, then its deliveries not yet sent are ended in short steps
/// (``Ending``).
package protocol EndingStore: Sendable {
    /// Marks a message that has not finished `cancelled` (with `finished_at`), in one short
    /// transaction, and returns it as it is afterwards (nil when the app has no such message): from
    /// then on no fan-out batch writes more of it and no claim hands out its deliveries. Its
    /// deliveries not yet sent are ended afterwards, in short steps
    /// (``endPendingDeliveries(messageSeq:limit:now:)``); ``cancelMessage(appID:id:now:)`` does both.
    func markCancelled(appID: String, id: String, now: Int) async throws -> MessageRecord?
    /// Marks a message that has not finished `failed` with `reason` (and `finished_at`), in one
    /// short transaction; returns whether it did. Its deliveries not yet sent are ended afterwards
    /// (``endPendingDeliveries(messageSeq:limit:now:)``); ``failMessage(seq:reason:now:)`` does both.
    func markFailed(seq: Int, reason: String, now: Int) async throws -> Bool
    /// Ends up to `limit` deliveries not yet sent (``Lifecycle/pending``) of a cancelled or failed
    /// message, in one transaction, as the message ended: `cancelled`, or `failed` with the
    /// message's reason, each with its history event. Returns how many; 0 when none is left, or
    /// when the message is not cancelled or failed.
    func endPendingDeliveries(messageSeq: Int, limit: Int, now: Int) async throws -> Int
    /// Cancelled or failed messages that still have deliveries due by `now` among the `window`
    /// earliest due (a cancel or a failure that stopped before ending them all): what
    /// ``endAbandonedDeliveries(now:)`` finishes.
    func abandonedMessages(now: Int, window: Int) async throws -> [Int]
}
