package import NotibaseDomain
/// The fan-out (``FanOut``, and a send's audience written at once): the messages due, their
/// deliveries written a batch at a time, and the messages left complete.
package protocol FanOutStore: Sendable {
    func messagesToFanOut(now: Int, limit: Int) async throws -> [MessageRecord]
    /// Writes the next batch (up to `limit` devices) of a message's deliveries and moves its
    /// cursor, in one transaction. With `claim`, the first `claim.limit` deliveries due now
    /// (pacing gives none of its own a claim) are written claimed by the caller for `claim.lease`
    /// milliseconds, exactly as ``DeliveryQueueStore/claimDeliveries(now:lease:limit:)`` leaves
    /// what it claims, and come back with the batch: the node that wrote them sends them without a
    /// claim of its own (one write fewer per delivery), and if it dies they are due again when the
    /// lease ends. What is written is what `plan` decides from the message and the devices read
    /// (``FanOutInputs``, ``FanOutWrites``); the store reads, calls it inside the transaction, and
    /// writes, then completes the message if the plan says its audience is done.
    func fanOutBatch(messageSeq: Int, audience: Audience, limit: Int, now: Int, claim: FanOutClaim?, plan: @escaping FanOutPlan) async throws -> FanOutBatch
    /// How long one fan-out batch should take at most (``BatchPacing``): what waits for it. On
    /// SQLite everything does (one connection), so it is short; on PostgreSQL only the fan-out
    /// does, and short batches cost it a commit each.
    var fanOutBatchTarget: Duration { get }
    /// Completes every `sending` message with no delivery left to send. Writers complete their own
    /// messages as they go; this catches the ones two concurrent transactions each left to the
    /// other (on PostgreSQL, a last fan-out batch and a worker's record, neither seeing the other).
    func completeFinishedMessages(now: Int) async throws -> Int
}
