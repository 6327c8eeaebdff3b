import Foundation
package import NotibaseCore
import NotibaseSenders
package import NotibaseDomain
package import NotibaseStore
import NotibaseWebhooks

/// Writes the deliveries of due messages, a batch of devices per transaction, so a large audience
/// never holds the database for long and a crash resumes at the last committed batch.
package actor FanOut {
    private let store: any FanOutStore & EndingStore
    private let clock: WallClock
    private let logger: Logger
    private let metrics: Metrics
    private let batchSize: Int
    /// Devices per transaction now: the configured batch, smaller while batches take longer than
    /// ``BatchPacing`` allows, so a message posted meanwhile waits for no long transaction.
    private var pacing: BatchPacing
    private let signals: WorkSignals
    /// Where what it writes claimed for this node's workers goes, and for how long it is leased.
    private let handoff: (queue: Handoff, lease: Duration)?
    /// A count that grows with each one-device message posted on this node (``MessageService/posts``):
    /// while it grows, batches are the smallest (``BatchPacing``).
    private let posted: @Sendable () -> Int

    /// Batches of `batchSize` devices, or down to `minimumBatchSize` while they are slow
    /// (``BatchPacing``; by default the size is fixed), and while `posted` grows. With `handoff`,
    /// each batch writes what it has room for claimed for this node's workers (``Handoff``).
    init(
        store: any FanOutStore & EndingStore, clock: WallClock, logger: Logger, metrics: Metrics, batchSize: Int, minimumBatchSize: Int? = nil,
        signals: WorkSignals = WorkSignals(), handoff: (queue: Handoff, lease: Duration)? = nil, posted: @escaping @Sendable () -> Int = { 0 }
    ) {
        self.posted = posted
        self.handoff = handoff
        self.store = store
        self.signals = signals
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
        self.batchSize = batchSize
        self.pacing = BatchPacing(maximum: batchSize, minimum: minimumBatchSize ?? batchSize, slow: store.fanOutBatchTarget)
    }

    /// How many due messages one round considers.
    package static let messagesPerRound = 100

    /// What one round did.
    package struct Round: Sendable, Equatable {
        /// Deliveries written.
        package var written = 0
        /// Messages still being fanned out after it.
        package var unfinished = 0
    }

    /// Fans out every due message completely, in rounds; returns how many deliveries it wrote.
    @discardableResult
    package func runOnce() async throws -> Int {
        var written = 0
        while true {
            let round = try await runRound()
            written += round.written
            if round.unfinished == 0 || Task.isCancelled { return written }
        }
    }

    /// One round: one batch of each due message, taking turns between apps (each app's oldest
    /// first), so a message to one device waits for at most one batch of each message ahead of it,
    /// never for a whole large audience. A message whose stored content cannot be read is failed
    /// with that reason, and the round goes on with the others.
    package func runRound() async throws -> Round {
        var round = Round()
        let due = try await store.messagesToFanOut(now: clock.milliseconds(), limit: Self.messagesPerRound)
        for message in Self.roundOrder(due) where !Task.isCancelled {
            guard let content = message.content, let audience = message.audience else {
                let reason = "the stored message could not be read, so it was not sent; send it again"
                try await store.failMessage(seq: message.seq, reason: reason, now: clock.milliseconds())
                logger.error("message failed: its stored content is not readable", ["messageId": .string(message.id)])
                continue
            }
            let chooser = VariantChooser(content)
            do {
                let started = ContinuousClock.now
                let postedBefore = posted()
                let claim = handoff.flatMap { handoff in
                    let room = handoff.queue.room
                    return room > 0 ? FanOutClaim(lease: Int(handoff.lease.seconds * 1000), limit: room) : nil
                }
                let batch = try await store.fanOutBatch(
                    messageSeq: message.seq, audience: audience, chooser: chooser, limit: pacing.size, now: clock.milliseconds(), claim: claim)
                pacing.record(ContinuousClock.now - started, othersArrived: posted() != postedBefore)
                handoff?.queue.put(batch.claimed)
                round.written += batch.written
                metrics.recordFanOut(deliveries: batch.written)
                if batch.written > 0 { signals.delivery.notify() }
                if batch.done {
                    logger.info("fan-out finished", ["messageId": .string(message.id)])
                } else if batch.written > 0 {
                    round.unfinished += 1
                }
                // (Nothing written and not done: another node holds the message for its batch;
                // this one does not spin on it, and looks again on its next round.)
            } catch {
                // This message's turn is lost, not the others': it is tried again next round.
                logger.error("fan-out batch failed; trying again", ["messageId": .string(message.id), "error": .string("\(error)")])
            }
        }
        return round
    }

    /// The largest audience the request that posts a message writes the deliveries of itself
    /// (``atOnce(_:store:now:)``): a password reset or a one-user alert goes out without waiting
    /// for the fan-out's turn behind a large message's batch.
    package static let atOnceAudience = 100

    /// Writes the deliveries of a message due now in one batch, from the request that posted it,
    /// as the fan-out loop would (the same store call: the cursor moves with the batch, and on
    /// PostgreSQL the message's row is locked for it, so the loop and other nodes skip it
    /// meanwhile). Returns how many were written, whether that was the whole audience and the
    /// devices' platforms, or nil when it wrote nothing and the loop does it (content unreadable,
    /// a failure of the store).
    package static func atOnce(_ message: MessageRecord, store: any FanOutStore, now: Int) async -> (count: Int, done: Bool, platforms: Set<Platform>)? {
        guard let content = message.content, let audience = message.audience else { return nil }
        let chooser = VariantChooser(content)
        guard let batch = try? await store.fanOutBatch(
            messageSeq: message.seq, audience: audience, chooser: chooser, limit: atOnceAudience + 1, now: now, claim: nil) else { return nil }
        return (batch.written, batch.done, batch.platforms)
    }

    /// `messages` (oldest first) in the order a round gives them their batch: those not started yet
    /// first, so a message posted during a large fan-out has its deliveries in the next batch
    /// written rather than after another batch of the large one; then those under way. Apps take
    /// turns within each (``takingTurns(_:)``).
    package static func roundOrder(_ messages: [MessageRecord]) -> [MessageRecord] {
        takingTurns(messages.filter { $0.state == .scheduled }) + takingTurns(messages.filter { $0.state != .scheduled })
    }

    /// `messages` (oldest first) reordered to take turns between apps: every app's oldest, then
    /// every app's second, and so on.
    package static func takingTurns(_ messages: [MessageRecord]) -> [MessageRecord] {
        var queues: [String: [MessageRecord]] = [:]
        var apps: [String] = []
        for message in messages {
            if queues[message.appID] == nil { apps.append(message.appID) }
            queues[message.appID, default: []].append(message)
        }
        var ordered: [MessageRecord] = []
        ordered.reserveCapacity(messages.count)
        var depth = 0
        while ordered.count < messages.count {
            for app in apps where depth < queues[app]!.count { ordered.append(queues[app]![depth]) }
            depth += 1
        }
        return ordered
    }

    /// Runs until cancelled: rounds back to back while messages are being fanned out; when none
    /// is, a look every `interval`, or at once when a message is signalled.
    package func run(interval: Duration) async {
        var lastSweep = ContinuousClock.now
        while !Task.isCancelled {
            let generation = signals.fanOut.generation
            var unfinished = 0
            do {
                unfinished = try await runRound().unfinished
                if ContinuousClock.now - lastSweep >= Self.sweepInterval {
                    lastSweep = ContinuousClock.now
                    _ = try await store.completeFinishedMessages(now: clock.milliseconds())
                    _ = try await store.endAbandonedDeliveries(now: clock.milliseconds())
                }
            } catch {
                logger.error("fan-out failed; retrying", ["error": .string("\(error)")])
            }
            if unfinished == 0 { await signals.fanOut.wait(since: generation, timeout: interval) }
        }
    }

    /// How often messages that every writer left to another are completed (``FanOutStore/completeFinishedMessages(now:)``),
    /// and what an interrupted cancel or failure left is ended (``EndingStore/endAbandonedDeliveries(now:)``).
    package static let sweepInterval: Duration = .seconds(1)
}
