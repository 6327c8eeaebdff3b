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

/// The fan-out planner, without a database: what a batch writes for the message, the devices read
/// and the time. The storage contract suite checks that both stores write what it decides.
@Suite struct FanOutPlannerTests {
    let now = 1_000_000

    func message(cursor: Int = 0, createdAt: Int = 500, ttl: Int? = nil, sendAt: Int? = nil, pacing: Pacing? = nil) -> MessageRecord {
        MessageRecord(
            seq: 7, id: "m", appID: "a", content: MessageContent(message: Message(title: "T", ttl: ttl), variants: nil), audience: .everyone,
            state: .fanningOut, sendAt: sendAt ?? now, audienceSize: 0, fanOutCursor: cursor, createdAt: createdAt, finishedAt: nil, pacing: pacing)
    }

    func target(_ seq: Int, locale: String? = nil, timeZone: String? = nil, platform: String = "ios", createdAt: Int = 10) -> FanOutTarget {
        FanOutTarget(seq: seq, platform: platform, locale: locale, timeZone: timeZone, token: "t\(seq)", createdAt: createdAt, apnsEnvironment: nil)
    }

    func plan(_ message: MessageRecord, _ targets: [FanOutTarget], limit: Int = 10, claim: FanOutClaim? = nil, locales: [String] = []) -> FanOutWrites {
        FanOutPlanner(chooser: VariantChooser(locales: locales)).plan(FanOutInputs(message: message, targets: targets, limit: limit, now: now, claim: claim))
    }

    @Test func eachDeviceGetsItsLocalesVariantAndTheClaimsRoomIsWrittenClaimed() {
        let targets = [target(3, locale: "fr_FR"), target(5, locale: "en", platform: "android"), target(8, locale: "FR-ca")]
        let writes = plan(message(), targets, claim: FanOutClaim(lease: 30_000, limit: 2), locales: ["fr"])
        #expect(writes.rows.map(\.variant) == ["fr", nil, "fr"])
        #expect(writes.rows.map(\.target.seq) == [3, 5, 8])
        // The first two are written as a claim leaves them: due when the lease ends, one attempt.
        #expect(writes.rows.map(\.attempts) == [1, 1, 0])
        #expect(writes.rows.map(\.due) == [now + 30_000, now + 30_000, now])
        #expect(writes.rows.allSatisfy { $0.state == .queued && $0.failure == nil && $0.schedule == nil })
        let claimed = writes.rows[0].claimedDelivery(seq: 42, id: "d", messageSeq: 7, written: writes.written)
        #expect(claimed.seq == 42 && claimed.deviceSeq == 3 && claimed.token == "t3" && claimed.variant == "fr" && claimed.attempts == 1)
        #expect(writes.counts == ["ios": ["queued": 2], "android": ["queued": 1]])
    }

    @Test func aShortBatchEndsTheAudienceAndAFullOneMovesTheCursor() {
        let short = plan(message(cursor: 2), [target(3), target(4)], limit: 3)
        #expect(short.done && short.state == .sending && short.cursor == 4)
        let full = plan(message(cursor: 2), [target(3), target(4)], limit: 2)
        #expect(!full.done && full.state == .fanningOut && full.cursor == 4)
        let none = plan(message(cursor: 9), [], limit: 2)
        #expect(none.done && none.state == .sending && none.cursor == 9 && none.rows.isEmpty)
        #expect(none.pacing == nil, "a message without pacing stores nothing of it")
    }

    @Test func theBatchIsStampedNoEarlierThanItsDevicesAndMessage() {
        #expect(plan(message(), [target(1)]).written == now)
        #expect(plan(message(), [target(1), target(2, createdAt: now + 5)]).written == now + 5)
        #expect(plan(message(createdAt: now + 9), [target(1)]).written == now + 9)
    }

    @Test func pacingSpacesTheDeliveriesAtTheRateTakesNoClaimAndStoresItsProgress() {
        var pacing = Pacing(ratePerMinute: 60)
        pacing.plan = DeliverySchedule.plan(for: pacing, sendAt: now, expected: [:], now: now)
        let writes = plan(message(pacing: pacing), [target(1), target(2), target(3)], claim: FanOutClaim(lease: 30_000, limit: 10))
        #expect(writes.rows.map(\.due) == [now, now + 1_000, now + 2_000])
        #expect(writes.rows.map(\.scheduled) == [now, now + 1_000, now + 2_000])
        #expect(writes.rows.allSatisfy { $0.attempts == 0 && $0.schedule != nil }, "a paced delivery waits for its moment, never claimed")
        #expect(writes.pacing?.plan?.lanes.first?.placed == 3)
        #expect(writes.pacing?.ratePerMinute == 60)
    }

    /// The store runs the completion's statement only when it may complete something: the
    /// audience is done and nothing the batch wrote is pending (a one-device message's row is).
    @Test func onlyADoneBatchWithNothingPendingMayCompleteItsMessage() {
        #expect(!plan(message(cursor: 2), [target(3), target(4)], limit: 3).mayComplete, "its rows are queued")
        #expect(!plan(message(cursor: 2), [target(3)], limit: 3, claim: FanOutClaim(lease: 30_000, limit: 1)).mayComplete, "a claimed row is pending")
        #expect(!plan(message(cursor: 2), [target(3), target(4)], limit: 2).mayComplete, "its audience is not done")
        #expect(plan(message(cursor: 9), [], limit: 2).mayComplete, "an audience done with no row may leave the message finished")
        let late = ms("2026-12-01T22:30:00Z")
        let failedOnly = FanOutPlanner(chooser: VariantChooser(locales: [])).plan(FanOutInputs(
            message: message(createdAt: late, ttl: 2 * 3600, sendAt: late, pacing: Pacing(quietHours: QuietHours(start: time("22:00"), end: time("08:00")))),
            targets: [target(1, timeZone: "Europe/Paris")], limit: 10, now: late, claim: nil))
        #expect(failedOnly.rows.map(\.state) == [.failed] && failedOnly.mayComplete, "a batch of failed rows may complete it")
    }

    @Test func aDeliveryTheScheduleCannotSendIsWrittenFailedWithItsEvent() {
        let late = ms("2026-12-01T22:30:00Z")  // 23:30 in Paris, 17:30 in New York
        let night = QuietHours(start: time("22:00"), end: time("08:00"))
        let writes = FanOutPlanner(chooser: VariantChooser(locales: [])).plan(FanOutInputs(
            message: message(createdAt: late, ttl: 2 * 3600, sendAt: late, pacing: Pacing(quietHours: night)),
            targets: [target(1, timeZone: "Europe/Paris"), target(2, timeZone: "America/New_York")], limit: 10, now: late, claim: nil))
        #expect(writes.rows.map(\.state) == [.failed, .queued])
        #expect(writes.rows[0].due == nil && writes.rows[1].due == late)
        let failure = writes.rows[0].failure.flatMap { StoredJSON.decode(DeliveryEventDetail.self, $0) }
        #expect(failure == .because("its time to live ended during the app's quiet hours (22:00–08:00 in Europe/Paris), so it was not sent"))
        #expect(writes.rows[1].failure == nil)
        #expect(writes.counts == ["ios": ["failed": 1, "queued": 1]])
    }
}
