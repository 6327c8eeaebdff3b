import Synchronization
package import NotibaseDomain
import NotibaseStore
import NotibaseWebhooks

/// Deliveries the fan-out wrote already claimed for this node (``FanOutClaim``), waiting for its
/// delivery workers: each is written once, then recorded, with no claim between.
///
/// It holds at most `capacity` deliveries, so what waits here is sent long before its lease ends
/// (the fan-out writes unclaimed deliveries while it is full). Workers take a handed-off batch
/// and a claim from the store in turn, so deliveries written any other way (another node's
/// fan-out, retries) wait behind at most one handed-off batch, never behind a large message's
/// whole audience. Posts' deliveries (handed over with their messages) go first: the fan-out's
/// batches leave them a worker's batch beyond `capacity`, and a worker takes them before
/// whatever else its turn would give it, every other batch at most, so the fan-out's batches
/// are still taken. What is still here when the node stops is due again when its lease ends,
/// for any node.
package final class Handoff: Sendable {
    /// Deliveries a worker takes at once, and the messages of those that came with them.
    package struct Batch: Sendable {
        package var deliveries: [ClaimedDelivery] = []
        /// Messages their writer handed over with them, as stored (a post's own message): the
        /// worker renders these without reading them again. Keyed by `seq`.
        package var messages: [Int: MessageRecord] = [:]
    }

    private struct State {
        package var batches: [Batch] = []
        /// Posts' deliveries, taken before ``batches``.
        package var posts: [Batch] = []
        /// Whether the store has the next turn.
        package var storeNext = false
        /// Whether the last batch taken was posts': the next is whatever the turn gives.
        package var postsTaken = false

        package var count: Int { (batches + posts).reduce(0) { $0 + $1.deliveries.count } }

        package mutating func removeFirst() -> Batch? {
            guard !batches.isEmpty else { return nil }
            return batches.removeFirst()
        }

        /// Posts' oldest batch, unless the last batch taken was posts' too.
        package mutating func postsFirst() -> Batch? {
            guard !postsTaken, !posts.isEmpty else {
                postsTaken = false
                return nil
            }
            postsTaken = true
            return posts.removeFirst()
        }
    }

    private let state = Mutex(State())
    package let capacity: Int
    /// The most a worker takes at once: its claim's size.
    package let batchSize: Int

    /// Room for a batch for each of `workers`.
    init(workers: Int, batchSize: Int) {
        self.batchSize = max(1, batchSize)
        capacity = max(1, workers) * self.batchSize
    }

    /// How many more deliveries it takes now.
    package var room: Int { state.withLock { max(0, capacity - $0.count) } }

    /// How many more deliveries of posts it takes now: up to `capacity` of posts, and a worker's
    /// batch beyond it when the fan-out's batches fill it, so a post's deliveries go first even
    /// while a large fan-out keeps it full.
    package var roomForPosts: Int {
        state.withLock { state in
            let posts = state.posts.reduce(0) { $0 + $1.deliveries.count }
            return max(0, min(capacity - posts, capacity + batchSize - state.count))
        }
    }

    /// Queues what a fan-out batch or a post claimed, in batches of at most `batchSize`: a worker
    /// takes no more at once than a claim of its own would give it, so what a node has in flight
    /// (and may send twice if it dies) stays within its workers' batches. Small ones (a post's
    /// one delivery) join the last batch while it has room, so that a worker sends many posts'
    /// deliveries at once and records them in one write. `messages` travel with the deliveries
    /// of theirs; deliveries handed over with messages are posts', which go first (see above).
    package func put(_ deliveries: [ClaimedDelivery], messages: [MessageRecord] = []) {
        guard !deliveries.isEmpty else { return }
        let known = Dictionary(messages.map { ($0.seq, $0) }) { first, _ in first }
        state.withLock { state in
            if messages.isEmpty {
                append(deliveries, known, to: &state.batches)
            } else {
                append(deliveries, known, to: &state.posts)
            }
        }
    }

    private func append(_ deliveries: [ClaimedDelivery], _ known: [Int: MessageRecord], to batches: inout [Batch]) {
        var rest = deliveries[...]
        if var last = batches.popLast() {
            let joining = rest.prefix(batchSize - last.deliveries.count)
            last.deliveries += joining
            for delivery in joining { last.messages[delivery.messageSeq] = known[delivery.messageSeq] ?? last.messages[delivery.messageSeq] }
            batches.append(last)
            rest = rest.dropFirst(joining.count)
        }
        while !rest.isEmpty {
            let piece = rest.prefix(batchSize)
            var batch = Batch(deliveries: Array(piece))
            for delivery in piece { batch.messages[delivery.messageSeq] = known[delivery.messageSeq] }
            batches.append(batch)
            rest = rest.dropFirst(piece.count)
        }
    }

    /// Drops what waits here of a message that stopped being sent (cancelled on this node): its
    /// deliveries stay claimed in the store, where the cancel ends them.
    package func forget(messageSeq: Int) {
        drop { $0.messageSeq == messageSeq }
    }

    /// Drops what waits here of these deliveries (their device signed out of the user their message
    /// was addressed to): the store has ended them.
    package func forget(deliverySeqs: Set<Int>) {
        drop { deliverySeqs.contains($0.seq) }
    }

    /// Removes the deliveries `isGone` picks, the messages no delivery of their batch still
    /// needs, and the batches left empty.
    private func drop(_ isGone: (ClaimedDelivery) -> Bool) {
        func drop(from batches: inout [Batch]) {
            for index in batches.indices {
                batches[index].deliveries.removeAll(where: isGone)
                let needed = Set(batches[index].deliveries.map(\.messageSeq))
                batches[index].messages = batches[index].messages.filter { needed.contains($0.key) }
            }
            batches.removeAll { $0.deliveries.isEmpty }
        }
        state.withLock { state in
            drop(from: &state.batches)
            drop(from: &state.posts)
        }
    }

    /// Posts' oldest batch, unless the last batch taken was posts' too; else the oldest handed-off
    /// batch, unless the store has this turn: after each such batch taken here, the next turn is
    /// the store's.
    package func take() -> Batch? {
        state.withLock { state in
            if let posts = state.postsFirst() { return posts }
            if state.storeNext {
                state.storeNext = false
                return nil
            }
            let batch = state.removeFirst()
            state.storeNext = batch != nil
            return batch
        }
    }

    /// Posts' oldest batch or the oldest handed-off batch, whoever's turn it is: for a worker
    /// whose claim found nothing.
    package func takeAny() -> Batch? {
        state.withLock { state in
            if let posts = state.postsFirst() { return posts }
            return state.removeFirst() ?? (state.posts.isEmpty ? nil : state.posts.removeFirst())
        }
    }
}
