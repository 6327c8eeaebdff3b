package import NotibaseCore
package import NotibaseDomain

extension FanOutStore {
    /// A fan-out batch decided by ``FanOutPlanner`` with `chooser`
    /// (``fanOutBatch(messageSeq:audience:limit:now:claim:plan:)``).
    package func fanOutBatch(messageSeq: Int, audience: Audience, chooser: VariantChooser, limit: Int, now: Int, claim: FanOutClaim?) async throws -> FanOutBatch {
        try await fanOutBatch(messageSeq: messageSeq, audience: audience, limit: limit, now: now, claim: claim, plan: FanOutPlanner(chooser: chooser).plan)
    }

    /// A fan-out batch that claims nothing.
    package func fanOutBatch(messageSeq: Int, audience: Audience, chooser: VariantChooser, limit: Int, now: Int) async throws -> (written: Int, done: Bool) {
        let batch = try await fanOutBatch(messageSeq: messageSeq, audience: audience, chooser: chooser, limit: limit, now: now, claim: nil)
        return (batch.written, batch.done)
    }
}

extension PostingStore {
    /// One message stored as ``createMessagesWithDeliveries(_:claim:)`` stores a group, claiming
    /// nothing; `platforms` are those of the devices written for.
    package func createMessageWithDeliveries(
        _ message: NewMessage, idempotencyKey: String?, window: Int, chooser: VariantChooser, limit: Int, now: Int
    ) async throws -> (MessageRecord, replayed: Bool, written: Int?, platforms: Set<Platform>) {
        let post = PostedMessage(message: message, idempotencyKey: idempotencyKey, window: window, chooser: chooser, limit: limit, now: now)
        let outcome = try await createMessagesWithDeliveries([post], claim: nil)[0].get()
        return (outcome.record, outcome.replayed, outcome.written, outcome.platforms)
    }
}
