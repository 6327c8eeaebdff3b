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

/// What every backend guarantees for paced messages: fan-out writes each delivery's due time as
/// the schedule decides and commits the rate's progress with its batch, claims take only what is
/// due, and the counts of what waits.
extension StorageContractTests {
    func pacedMessage(_ app: String, id: String = "paced", _ pacing: Pacing, ttl: Int? = nil, sendAt: Int = 100_000, expected: [String?: Int] = [:]) async throws -> MessageRecord {
        var pacing = pacing
        pacing.plan = DeliverySchedule.plan(for: pacing, sendAt: sendAt, expected: expected, now: sendAt)
        var new = try NewMessage(
            id: id, appID: app, content: MessageContent(message: Message(title: "T", ttl: ttl), variants: nil), audience: .everyone,
            sendAt: sendAt, audienceSize: 0, createdAt: sendAt)
        new.pacing = pacing
        return try await store.createMessage(new, idempotencyKey: nil, window: 1_000).0
    }

    func fanOutAll(_ message: MessageRecord, limit: Int, now: Int) async throws {
        while try await !store.fanOutBatch(messageSeq: message.seq, audience: .everyone, chooser: VariantChooser(locales: []), limit: limit, now: now).done {}
    }

    @Test func aRateHoldsAcrossFanOutBatchesAndOnlyDueDeliveriesAreClaimed() async throws {
        let app = try await app()
        try await devices(app, 5)
        let message = try await pacedMessage(app, Pacing(ratePerMinute: 60))
        try await fanOutAll(message, limit: 2, now: 100_000)
        // The progress was stored with each batch: the five went at one a second, not two per batch.
        #expect(try await store.message(seq: message.seq)?.pacing?.plan?.lanes.first?.placed == 5)
        let waiting = try await store.waitingDeliveries(messageSeq: message.seq, now: 100_000)
        #expect(waiting.count == 4 && waiting.lastDueAt == 104_000)
        let first = try await store.claimDeliveries(now: 100_000, lease: 30_000, limit: 10)
        #expect(first.count == 1 && first[0].momentAt == 100_000 && first[0].scheduledAt == 100_000)
        #expect(try await store.claimDeliveries(now: 100_999, lease: 30_000, limit: 10).isEmpty)
        let rest = try await store.claimDeliveries(now: 104_000, lease: 30_000, limit: 10)
        #expect(rest.compactMap(\.scheduledAt).sorted() == [101_000, 102_000, 103_000, 104_000])
        #expect(try await store.waitingDeliveries(messageSeq: message.seq, now: 104_000).count == 0)
        let logged = try await store.deliveries(messageSeq: message.seq, state: nil, afterSeq: 0, limit: 10)
        #expect(logged.map { $0.schedule?.decidedBy } == [[], ["rate"], ["rate"], ["rate"], ["rate"]])
        #expect(logged.last?.schedule?.dueAt == 104_000.timestamp)
    }

    @Test func eachDeliveryIsDueAtItsZonesMomentAndOneThatCannotBeSentInTimeIsWrittenFailed() async throws {
        let app = try await app()
        let zones = ["Europe/Paris", "America/New_York", nil]
        _ = try await store.registerDevices(appID: app, zones.enumerated().map { index, zone in
            (DeviceUpsert(platform: .ios, token: String(format: "%064x", index + 1), timeZone: zone), newID: "d\(index)")
        }, now: 10)
        let byZone = try await store.audienceByTimeZone(appID: app, .everyone)
        #expect(byZone == ["Europe/Paris": 1, "America/New_York": 1, nil: 1])
        // Sent at 2026-12-01T12:00Z: 09:00 comes tomorrow in Paris, in two hours in New York; UTC
        // (the fallback) tomorrow too. A TTL of a day: a device's moment in Paris is fine.
        let sent = 1_796_126_400_000
        let message = try await pacedMessage(app, Pacing(localTime: WallTime(hour: 9, minute: 0)), ttl: 86_400, sendAt: sent)
        try await fanOutAll(message, limit: 10, now: sent)
        let logged = try await store.deliveries(messageSeq: message.seq, state: nil, afterSeq: 0, limit: 10)
        #expect(logged.map { $0.schedule?.timeZone } == ["Europe/Paris", "America/New_York", "UTC"])
        #expect(logged.map { $0.schedule?.timeZoneFallback } == [nil, nil, true])
        #expect(try await store.waitingDeliveries(messageSeq: message.seq, now: sent).lastDueAt == sent + 21 * 3_600_000)
        let newYork = try await store.claimDeliveries(now: sent + 7_200_000, lease: 30_000, limit: 10)
        #expect(newYork.map(\.id) == [logged[1].id] && newYork[0].momentAt == sent + 7_200_000)

        // Quiet hours until 08:00 and a TTL of half an hour: Paris (13:00) is fine, New York
        // (07:00) would wait past its TTL: written failed, with the reason, never claimed.
        let quiet = try await pacedMessage(app, id: "quiet", Pacing(quietHours: QuietHours(start: WallTime(hour: 22, minute: 0), end: WallTime(hour: 8, minute: 0))), ttl: 1_800, sendAt: sent)
        try await fanOutAll(quiet, limit: 10, now: sent)
        let decided = try await store.deliveries(messageSeq: quiet.seq, state: nil, afterSeq: 0, limit: 10)
        #expect(decided.map(\.state) == [.queued, .failed, .queued])
        #expect(decided[1].events.map(\.event) == ["failed"] && decided[1].events.first?.detail?.reason?.contains("quiet hours") == true)
        #expect(decided[1].schedule?.decidedBy == ["quietHours"])
        // The rest of both messages (New York's lease has ended), and not the failed one.
        let claimed = try await store.claimDeliveries(now: sent + 86_400_000, lease: 30_000, limit: 10)
        #expect(claimed.count == 5 && !claimed.map(\.id).contains(decided[1].id))
    }

    /// A fan-out that read its clock before its message was stamped (another node's clock runs
    /// behind, or the batch waited for the store) writes its deliveries at the message's time, and
    /// what it records of them too: the `failed` entry the schedule decided and the message's
    /// completion are never older than the delivery they are about.
    @Test func whatAFanOutRecordsOfADeliveryIsNeverOlderThanTheDelivery() async throws {
        let app = try await app()
        _ = try await store.registerDevices(
            appID: app, [(DeviceUpsert(platform: .ios, token: String(format: "%064x", 1), timeZone: "America/New_York"), newID: "ny")], now: 10)
        let sent = 1_796_126_400_000  // 07:00 in New York: quiet until 08:00 and a TTL of half an hour
        let quiet = try await pacedMessage(
            app, Pacing(quietHours: QuietHours(start: WallTime(hour: 22, minute: 0), end: WallTime(hour: 8, minute: 0))), ttl: 1_800, sendAt: sent)
        try await fanOutAll(quiet, limit: 10, now: sent - 50)
        let delivery = try #require(try await store.deliveries(messageSeq: quiet.seq, state: nil, afterSeq: 0, limit: 10).first)
        #expect(delivery.state == .failed && delivery.createdAt == sent)
        #expect(delivery.events.map(\.event) == ["failed"] && delivery.events.allSatisfy { $0.at >= delivery.createdAt }, "\(delivery.events.map(\.at))")
        let message = try await store.message(seq: quiet.seq)
        #expect(message?.state == .completed && (message?.finishedAt ?? 0) >= delivery.createdAt)
        #expect(try await store.integrityProblems() == [])
    }

    @Test func anAppsPacingIsStoredAndKeptWhenNotChanged() async throws {
        let app = try await app()
        let pacing = AppPacing(quietHours: QuietHours(start: WallTime(hour: 22, minute: 0), end: WallTime(hour: 7, minute: 30)), defaultRatePerMinute: 500)
        #expect(try await store.updateApp(app, name: nil, requireIdentityVerification: nil, pacing: pacing)?.pacing == pacing)
        #expect(try await store.updateApp(app, name: "renamed", requireIdentityVerification: nil, pacing: nil)?.pacing == pacing)
        #expect(try await store.app(app)?.pacing == pacing)
        #expect(try await store.updateApp(app, name: nil, requireIdentityVerification: nil, pacing: AppPacing())?.pacing == AppPacing())
    }
}

extension StorageContractTests {
    /// Messages whose deliveries all wait for a later moment take no share of a claim: with more
    /// of them than a claim shares between, a message to one device posted during a large send
    /// still goes with the next claim.
    @Test func messagesWaitingForTheirMomentTakeNoShareOfAClaim() async throws {
        let app = try await app()
        try await devices(app, 30)
        let sent = 1_796_126_400_000  // 2026-12-01T12:00Z; 09:00 UTC comes tomorrow
        for index in 0..<ClaimShares.messagesPerClaim {
            let waiting = try await pacedMessage(app, id: "waiting-\(index)", Pacing(localTime: WallTime(hour: 9, minute: 0)), sendAt: sent)
            try await fanOutAll(waiting, limit: 100, now: sent)
        }
        let (large, _) = try await message(app, id: "large", now: sent)
        try await fanOutAll(large, limit: 100, now: sent)
        let (urgent, _) = try await message(app, id: "urgent", audience: .devices(["\(app)-dev-1"]), now: sent)
        try await fanOutAll(urgent, limit: 100, now: sent)
        let claimed = try await store.claimDeliveries(now: sent, lease: 30_000, limit: 10)
        #expect(claimed.count == 10)
        #expect(claimed.contains { $0.messageSeq == urgent.seq })
    }
}
