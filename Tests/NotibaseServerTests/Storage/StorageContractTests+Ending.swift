import Foundation
import NotibaseCore
import Testing
@testable import NotibaseServer
@testable import NotibaseDomain
@testable import NotibaseStore
@testable import NotibaseSQLite
@testable import NotibasePostgres
@testable import NotibaseHTTP
@testable import NotibaseOutbound
@testable import NotibaseWebhooks
@testable import NotibaseServices
@testable import NotibaseAPI
@testable import NotibaseDelivery
@testable import NotibaseServerTestSupport

/// What every backend guarantees when a message is cancelled or fails: the message stops in one
/// short transaction, its deliveries not yet sent end in batches of at most ``Ending/batch``, no
/// claim hands one of them out meanwhile, and the sweep finishes what an interrupted end left.
extension StorageContractTests {
    /// A message fanned out to more devices than one batch ends, with one of them sent.
    func messageOverOneBatch(_ app: String, id: String = "big") async throws -> (MessageRecord, sent: ClaimedDelivery) {
        let (message, _) = try await self.message(app, id: id)
        _ = try await store.fanOutBatch(messageSeq: message.seq, audience: .everyone, chooser: VariantChooser(locales: []), limit: 10_000, now: 200)
        let sent = try #require(try await store.claimDeliveries(now: 300, lease: 1_000, limit: 1).first)
        try await store.recordDeliveries([DeliveryUpdate(seq: sent.seq, state: .sent, providerID: "p")], messageSeqs: [message.seq], now: 310)
        return (message, sent)
    }

    func counts(_ message: MessageRecord) async throws -> [String: Int] {
        try await store.deliveryCounts(messageSeq: message.seq).reduce(into: [:]) { $0[$1.state, default: 0] += $1.count }
    }

    @Test func aCancelEndsEveryDeliveryNotYetSentInBatchesEachWithItsEvent() async throws {
        let app = try await app()
        let pending = Ending.batch + 500
        try await devices(app, pending + 1)
        let (message, sent) = try await messageOverOneBatch(app)
        // The first step only stops the message: nothing of its deliveries is written yet.
        let marked = try #require(try await store.markCancelled(appID: app, id: message.id, now: 400))
        #expect(marked.state == .cancelled && marked.finishedAt == 400)
        #expect(try await counts(message) == ["queued": pending, "sent": 1])
        // Then a batch per transaction, until none is left.
        #expect(try await store.endPendingDeliveries(messageSeq: message.seq, limit: Ending.batch, now: 400) == Ending.batch)
        #expect(try await counts(message) == ["queued": 500, "cancelled": Ending.batch, "sent": 1])
        #expect(try await store.cancelMessage(appID: app, id: message.id, now: 500)?.state == .cancelled)
        #expect(try await counts(message) == ["cancelled": pending, "sent": 1])
        #expect(try await store.queueDepth() == 0)
        #expect(try await store.rowCount("delivery_events") == pending)
        let cancelled = try await store.deliveries(messageSeq: message.seq, state: .cancelled, afterSeq: 0, limit: 10_000)
        #expect(cancelled.count == pending)
        for listed in [cancelled.first, cancelled.last].compactMap({ $0 }) {
            let delivery = try #require(try await store.delivery(appID: app, id: listed.id))
            #expect(delivery.events.map(\.event) == ["cancelled"])
        }
        #expect(try await store.delivery(appID: app, id: sent.id)?.state == .sent)
    }

    @Test func aFailureEndsItsDeliveriesWithItsReason() async throws {
        let app = try await app()
        try await devices(app, 3)
        let (message, _) = try await messageOverOneBatch(app)
        try await store.failMessage(seq: message.seq, reason: "unreadable", now: 400)
        #expect(try await store.message(seq: message.seq)?.state == .failed)
        #expect(try await counts(message) == ["failed": 2, "sent": 1])
        for listed in try await store.deliveries(messageSeq: message.seq, state: .failed, afterSeq: 0, limit: 10) {
            let delivery = try #require(try await store.delivery(appID: app, id: listed.id))
            #expect(delivery.events.map(\.event) == ["failed"] && delivery.events.first?.detail?.reason == "unreadable")
        }
    }

    /// Between the first step and the last batch, a claim hands out none of the message's
    /// deliveries (they would be sent after the cancel answered), and still those of others.
    @Test func aClaimBeforeACancelsBatchesRanTakesNoneOfItsDeliveries() async throws {
        let app = try await app()
        try await devices(app, 5)
        let (cancelled, _) = try await message(app)
        let (other, _) = try await message(app, id: "m2")
        for message in [cancelled, other] {
            _ = try await store.fanOutBatch(messageSeq: message.seq, audience: .everyone, chooser: VariantChooser(locales: []), limit: 10, now: 200)
        }
        _ = try await store.markCancelled(appID: app, id: cancelled.id, now: 250)
        let claimed = try await store.claimDeliveries(now: 300, lease: 1_000, limit: 20)
        #expect(claimed.count == 5 && claimed.allSatisfy { $0.messageSeq == other.seq })
        // A failed message's, the same.
        _ = try await store.markFailed(seq: other.seq, reason: "unreadable", now: 350)
        #expect(try await store.claimDeliveries(now: 1_400, lease: 1_000, limit: 20).isEmpty)
        #expect(try await store.endAbandonedDeliveries(now: 1_500) == 10)
    }

    /// A cancel that stopped after its first step (the server died) is finished by the sweep.
    @Test func anInterruptedCancelIsFinishedByTheSweep() async throws {
        let app = try await app()
        try await devices(app, Ending.batch + 1)
        let (message, _) = try await messageOverOneBatch(app)
        let (other, _) = try await self.message(app, id: "m2")
        _ = try await store.fanOutBatch(messageSeq: other.seq, audience: .everyone, chooser: VariantChooser(locales: []), limit: 1, now: 200)
        _ = try await store.markCancelled(appID: app, id: message.id, now: 400)
        #expect(try await store.endAbandonedDeliveries(now: 500) == Ending.batch)
        #expect(try await counts(message) == ["cancelled": Ending.batch, "sent": 1])
        #expect(try await store.rowCount("delivery_events") == Ending.batch)
        // The message being sent is no business of the sweep's.
        #expect(try await counts(other) == ["queued": 1])
        #expect(try await store.endAbandonedDeliveries(now: 600) == 0)
    }
}
