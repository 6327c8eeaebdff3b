import NotibaseDomain
/// The delivery history over time (``Retention``): its partitions made ahead, and what retention
/// no longer keeps removed.
package protocol HistoryStore: Sendable {
    /// Readies the delivery history for the weeks ahead of `now`: PostgreSQL makes the time
    /// partitions its history is kept in (safe on several nodes at once); SQLite has nothing to do.
    func prepareHistory(now: Int) async throws
    /// Drops, a whole time partition at a time, the history retention no longer keeps (deliveries,
    /// events and receipts of messages that all finished before `finishedBefore`); returns how many
    /// partitions. 0 on a backend that keeps its history in one table (SQLite).
    func dropExpiredHistory(finishedBefore: Int) async throws -> Int
    /// Removes a batch of what retention no longer keeps and no partition drop removes
    /// (``Retention``): deliveries, with their events and receipts, of messages finished before
    /// `finishedBefore`, then those messages. Returns how many rows; 0 when nothing is left.
    func purgeMessages(finishedBefore: Int, limit: Int) async throws -> Int
}
