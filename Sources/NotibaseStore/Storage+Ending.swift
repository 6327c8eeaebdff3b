package import NotibaseDomain
/// How a cancelled or failed message's deliveries not yet sent are ended. Not in the transaction
/// that stops the message: a message of 200,000 deliveries would hold it for a second, and on
/// SQLite every request of every app waits for it. The message is marked first (nothing more of
/// it is written or claimed from then on), then its deliveries are ended a batch per transaction,
/// so other work goes on between the batches. If the server stops in between, the fan-out's sweep
/// finishes them (``EndingStore/endAbandonedDeliveries(now:)``).
package enum Ending {
    /// Deliveries ended per transaction: a few milliseconds of the store each.
    package static let batch = 2_000
    /// How many of the earliest due deliveries the sweep looks among for abandoned messages: the
    /// ones a claim would meet first.
    package static let sweepWindow = 500

    /// What a message's end makes of its deliveries not yet sent: `cancelled`, or `failed` with
    /// the message's reason as the event's detail. Nil for a message that did not end either way.
    package struct Outcome {
        package var state: DeliveryState
        package var detail: String?

        /// From the message's stored state and failure reason.
        package init?(state message: String, reason: String?) {
            switch MessageState(rawValue: message) {
            case .cancelled: (state, detail) = (.cancelled, nil)
            case .failed: (state, detail) = (.failed, DeliveryEventDetail.because(reason ?? "").stored)
            default: return nil
            }
        }
    }
}

extension EndingStore {
    /// Cancels a message that has not finished: marks it, then ends its deliveries not yet sent,
    /// a batch per transaction, before returning. Returns the message as marked (nil when the app
    /// has no such message). Cancelling a cancelled message again finishes what an interrupted
    /// cancel left.
    package func cancelMessage(appID: String, id: String, now: Int) async throws -> MessageRecord? {
        guard let message = try await markCancelled(appID: appID, id: id, now: now) else { return nil }
        if message.state == .cancelled { try await endPendingDeliveries(of: message.seq, now: now) }
        return message
    }

    /// Gives up a message that cannot be fanned out or sent: it stops, and its deliveries not yet
    /// sent fail with `reason`, a batch per transaction.
    package func failMessage(seq: Int, reason: String, now: Int) async throws {
        if try await markFailed(seq: seq, reason: reason, now: now) { try await endPendingDeliveries(of: seq, now: now) }
    }

    /// Ends every delivery not yet sent of a cancelled or failed message, ``Ending/batch`` per
    /// transaction; returns how many. Stops when a batch finds nothing left.
    @discardableResult
    package func endPendingDeliveries(of messageSeq: Int, now: Int) async throws -> Int {
        var ended = 0
        while true {
            let batch = try await endPendingDeliveries(messageSeq: messageSeq, limit: Ending.batch, now: now)
            if batch == 0 { return ended }
            ended += batch
        }
    }

    /// Finishes what a cancel or a failure left when the server stopped between its batches:
    /// the deliveries of every message ``abandonedMessages(now:window:)`` finds. Returns how many.
    package func endAbandonedDeliveries(now: Int) async throws -> Int {
        var ended = 0
        for message in try await abandonedMessages(now: now, window: Ending.sweepWindow) {
            ended += try await endPendingDeliveries(of: message, now: now)
        }
        return ended
    }
}
