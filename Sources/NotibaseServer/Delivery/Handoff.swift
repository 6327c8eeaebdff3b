import Synchronization

/// Deliveries the fan-out wrote already claimed for this node (``FanOutClaim``), waiting for its
/// delivery workers: each is written once, then recorded, with no claim between.
///
/// It holds at most `capacity` deliveries, so what waits here is sent long before its lease ends
/// (the fan-out writes unclaimed deliveries while it is full). Workers take a handed-off batch
/// and a claim from the store in turn, so deliveries written any other way (a post's own batch,
/// another node's fan-out, retries) wait behind at most one handed-off batch, never behind a
/// large message's whole audience. What is still here when the node stops is due again when its
/// lease ends, for any node.
final class Handoff: Sendable {
    private struct State {
        var batches: [[ClaimedDelivery]] = []
        /// Whether the store has the next turn.
        var storeNext = false

        mutating func removeFirst() -> [ClaimedDelivery]? {
            guard !batches.isEmpty else { return nil }
            return batches.removeFirst()
        }
    }

    private let state = Mutex(State())
    let capacity: Int
    /// The most a worker takes at once: its claim's size.
    let batchSize: Int

    /// Room for a batch for each of `workers`.
    init(workers: Int, batchSize: Int) {
        self.batchSize = max(1, batchSize)
        capacity = max(1, workers) * self.batchSize
    }

    /// How many more deliveries it takes now.
    var room: Int { state.withLock { max(0, capacity - $0.batches.reduce(0) { $0 + $1.count }) } }

    /// Queues what a fan-out batch claimed, in pieces of at most `batchSize`: a worker takes no
    /// more at once than a claim of its own would give it, so what a node has in flight (and may
    /// send twice if it dies) stays within its workers' batches.
    func put(_ batch: [ClaimedDelivery]) {
        guard !batch.isEmpty else { return }
        let pieces = stride(from: 0, to: batch.count, by: batchSize).map { Array(batch[$0..<min($0 + batchSize, batch.count)]) }
        state.withLock { $0.batches += pieces }
    }

    /// The oldest handed-off batch, unless the store has this turn: after each batch taken here,
    /// the next turn is the store's.
    func take() -> [ClaimedDelivery]? {
        state.withLock { state in
            if state.storeNext {
                state.storeNext = false
                return nil
            }
            let batch = state.removeFirst()
            state.storeNext = batch != nil
            return batch
        }
    }

    /// The oldest handed-off batch, whoever's turn it is: for a worker whose claim found nothing.
    func takeAny() -> [ClaimedDelivery]? {
        state.withLock { $0.removeFirst() }
    }
}
