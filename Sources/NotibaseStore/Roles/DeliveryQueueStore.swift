package import NotibaseDomain
/// The delivery queue as the workers use it (``DeliveryWorker``): claims, the messages of what
/// they claimed, and the outcomes; and how deep it is (``QueueDepthProbe``).
package protocol DeliveryQueueStore: Sendable {
    /// Claims up to `limit` due deliveries for `lease` milliseconds. Never one of a message that is
    /// not being sent (a cancelled or failed message whose deliveries are still being ended).
    func claimDeliveries(now: Int, lease: Int, limit: Int) async throws -> [ClaimedDelivery]
    /// The messages of these numbers that are stored, in one read (a worker's batch).
    func messages(seqs: [Int]) async throws -> [MessageRecord]
    func recordDeliveries(_ updates: [DeliveryUpdate], messageSeqs: Set<Int>, now: Int) async throws
    func queueDepth() async throws -> Int
}
