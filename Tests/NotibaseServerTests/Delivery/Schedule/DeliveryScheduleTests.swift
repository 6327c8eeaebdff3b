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

/// Fan-out's decision for each delivery, without I/O: the clock is the `sendAt`/`now` given.
@Suite("Delivery schedule (pure)")
struct DeliveryScheduleTests {
    let sent = ms("2026-12-01T10:00:00Z")

    func schedule(_ pacing: Pacing, ttl: Int? = nil, expected: [String?: Int] = [:]) -> DeliverySchedule {
        var pacing = pacing
        pacing.plan = DeliverySchedule.plan(for: pacing, sendAt: sent, expected: expected, now: sent)
        return DeliverySchedule(pacing: pacing, sendAt: sent, ttl: ttl, expiresAt: nil)
    }

    /// The `scheduled` entry's detail as the log shows it, made from the stored note.
    func detail(_ decision: DeliverySchedule.Decision) throws -> [String: JSONValue] {
        let note = try #require(ScheduleNote(stored: decision.note))
        return try JSONDecoder().decode([String: JSONValue].self, from: JSONEncoder().encode(note.detail(dueAt: decision.dueAt)))
    }

    @Test func eachDeviceGetsTheNextLocalTimeInItsZone() throws {
        var s = schedule(Pacing(localTime: time("09:00")))
        // 11:00 in Paris: tomorrow. 05:00 in New York: today. Already 19:00 in Tokyo: tomorrow.
        #expect(s.decide(timeZone: "Europe/Paris").dueAt == ms("2026-12-02T08:00:00Z"))
        #expect(s.decide(timeZone: "America/New_York").dueAt == ms("2026-12-01T14:00:00Z"))
        #expect(s.decide(timeZone: "Asia/Tokyo").dueAt == ms("2026-12-02T00:00:00Z"))
        let paris = s.decide(timeZone: "Europe/Paris")
        #expect(paris.failure == nil && paris.origin == paris.dueAt)
        #expect(try detail(paris) == [
            "timeZone": "Europe/Paris", "localTime": "2026-12-02T09:00:00", "dueAt": "2026-12-02T08:00:00Z", "decidedBy": ["localTime"]])
    }

    @Test func devicesWithoutAKnownZoneUseTheFallback() throws {
        var utc = schedule(Pacing(localTime: time("09:00")))
        let none = utc.decide(timeZone: nil)
        #expect(none.dueAt == ms("2026-12-02T09:00:00Z"))
        #expect(try detail(none)["timeZoneFallback"] == true)
        #expect(try detail(none)["timeZone"] == "UTC")
        #expect(utc.decide(timeZone: "Mars/Olympus_Mons").dueAt == ms("2026-12-02T09:00:00Z"))
        var tokyo = schedule(Pacing(localTime: time("09:00"), fallbackTimeZone: "Asia/Tokyo"))
        #expect(tokyo.decide(timeZone: nil).dueAt == ms("2026-12-02T00:00:00Z"))
        #expect(try detail(tokyo.decide(timeZone: "Europe/Paris"))["timeZoneFallback"] == nil)
    }

    @Test func aDatedLocalTimeThatHasPassedIsSentAtOnceWithinItsTTL() {
        let pacing = Pacing(localTime: time("09:00"), localDate: date("2026-12-01"))
        var s = schedule(pacing, ttl: 86_400)
        // 09:00 in Tokyo was 00:00 UTC: at once, its TTL counted from 09:00 Tokyo.
        let tokyo = s.decide(timeZone: "Asia/Tokyo")
        #expect(tokyo.dueAt == sent && tokyo.origin == ms("2026-12-01T00:00:00Z") && tokyo.failure == nil)
        #expect(s.decide(timeZone: "America/Los_Angeles").dueAt == ms("2026-12-01T17:00:00Z"))
        var short = schedule(pacing, ttl: 3_600)
        #expect(short.decide(timeZone: "Asia/Tokyo").failure?.contains("its time to live ended before it could be sent (its moment was 2026-12-01T09:00:00 in Asia/Tokyo)") == true)
        #expect(short.decide(timeZone: "America/Los_Angeles").failure == nil)
        // When fan-out starts: when 09:00 first comes anywhere (+14:00), and whether it passed everywhere (−12:00).
        #expect(pacing.fanOutStart(now: ms("2026-11-01T00:00:00Z")) == ms("2026-11-30T19:00:00Z"))
        #expect(pacing.fanOutStart(now: sent) == sent)
        #expect(!pacing.hasPassedEverywhere(now: ms("2026-12-01T21:00:00Z")))
        #expect(pacing.hasPassedEverywhere(now: ms("2026-12-01T21:00:00.001Z")))
    }

    @Test func quietHoursHoldADeliveryUntilTheyEndUnlessItsTTLEndsFirst() throws {
        let night = QuietHours(start: time("22:00"), end: time("08:00"))
        let late = ms("2026-12-01T22:30:00Z")  // 23:30 in Paris, 17:30 in New York
        var s = DeliverySchedule(pacing: Pacing(quietHours: night), sendAt: late, ttl: 12 * 3600, expiresAt: nil)
        let paris = s.decide(timeZone: "Europe/Paris")
        #expect(paris.dueAt == ms("2026-12-02T07:00:00Z") && paris.origin == late && paris.failure == nil)
        #expect(try detail(paris)["decidedBy"] == ["quietHours"])
        #expect(try detail(paris)["localTime"] == "2026-12-02T08:00:00")
        #expect(s.decide(timeZone: "America/New_York").dueAt == late)
        var short = DeliverySchedule(pacing: Pacing(quietHours: night), sendAt: late, ttl: 2 * 3600, expiresAt: nil)
        #expect(short.decide(timeZone: "Europe/Paris").failure
            == "its time to live ended during the app's quiet hours (22:00–08:00 in Europe/Paris), so it was not sent")
        #expect(short.decide(timeZone: "America/New_York").failure == nil)
        // An absolute expiry counts the same way.
        var expiring = DeliverySchedule(pacing: Pacing(quietHours: night), sendAt: late, ttl: nil, expiresAt: ms("2026-12-02T06:00:00Z"))
        #expect(expiring.decide(timeZone: "Europe/Paris").failure != nil)
    }

    @Test func aLocalTimeInsideQuietHoursWaitsForTheirEnd() {
        var s = schedule(Pacing(localTime: time("07:00"), quietHours: QuietHours(start: time("22:00"), end: time("08:00"))))
        let paris = s.decide(timeZone: "Europe/Paris")
        #expect(paris.origin == ms("2026-12-02T06:00:00Z") && paris.dueAt == ms("2026-12-02T07:00:00Z"))
    }

    @Test func aRateSpreadsEveryZoneWithinIt() {
        let zones = ["Europe/Paris", "Europe/Berlin", "Europe/London", "America/New_York", "Asia/Kathmandu", nil]
        var expected: [String?: Int] = [:]
        for zone in zones { expected[zone] = 200 }
        var s = schedule(Pacing(localTime: time("09:00"), ratePerMinute: 100), expected: expected)
        var slots: [Int] = []
        for _ in 0..<200 { for zone in zones { slots.append(s.decide(timeZone: zone).dueAt) } }
        #expect(maxInAnyMinute(slots) == 100)
        #expect(Set(slots).count == slots.count)
        // Paris and Berlin share 08:00 UTC: one lane of 400, four minutes.
        var again = schedule(Pacing(localTime: time("09:00"), ratePerMinute: 100), expected: expected)
        let first = again.decide(timeZone: "Europe/Paris"), second = again.decide(timeZone: "Europe/Berlin")
        #expect(first.dueAt == ms("2026-12-02T08:00:00Z") && second.dueAt == first.dueAt + 600)
        #expect(first.origin == second.origin)
    }

    @Test func aRateWithoutTimeZonesStartsAtTheSendTime() throws {
        var s = schedule(Pacing(ratePerMinute: 120), ttl: 60)
        let slots = (0..<200).map { _ in s.decide(timeZone: nil) }
        #expect(slots[0].dueAt == sent && slots[119].dueAt == sent + 59_500)
        #expect(slots[119].failure == nil)
        #expect(slots[121].failure == "at the message's rate of 120 a minute its turn came after its time to live ended, so it was not sent")
        #expect(try detail(slots[1])["decidedBy"] == ["rate"])
        #expect(s.plan?.lanes.first?.placed == 200)
    }
}

/// The stored form of the `scheduled` entry.
@Suite("Schedule note")
struct ScheduleNoteTests {
    @Test func aNoteReadsBackAsItWasWritten() {
        for note in [
            ScheduleNote(decidedBy: ["localTime"], timeZone: "Europe/Paris", fellBack: false),
            ScheduleNote(decidedBy: ["localTime", "quietHours", "rate"], timeZone: "America/Argentina/Buenos_Aires", fellBack: false),
            ScheduleNote(decidedBy: [], timeZone: "UTC", fellBack: true),
        ] {
            #expect(ScheduleNote(stored: note.stored) == note)
        }
        #expect(ScheduleNote(decidedBy: ["localTime", "rate"], timeZone: "Asia/Kathmandu", fellBack: true).stored == "l,r|f|Asia/Kathmandu")
    }

    @Test func theEntryIsMadeFromTheNoteAndTheTimeItWasFirstDue() {
        let detail = ScheduleNote.detail(stored: "q|f|Asia/Kathmandu", dueAt: 1_796_126_400_000)  // 2026-12-01T12:00Z
        #expect(detail == DeliveryEventDetail(
            dueAt: "2026-12-01T12:00:00Z", timeZone: "Asia/Kathmandu", localTime: "2026-12-01T17:45:00", timeZoneFallback: true,
            decidedBy: ["quietHours"]))
    }

    /// Deliveries written before notes carry their entry as JSON, and still show it.
    @Test func anEntryStoredAsJSONStillReads() {
        let stored = #"{"decidedBy":["localTime"],"dueAt":"2026-12-01T08:00:00Z","localTime":"2026-12-01T09:00:00","timeZone":"Europe/Paris"}"#
        #expect(ScheduleNote.detail(stored: stored, dueAt: nil) == DeliveryEventDetail(
            dueAt: "2026-12-01T08:00:00Z", timeZone: "Europe/Paris", localTime: "2026-12-01T09:00:00", decidedBy: ["localTime"]))
    }

    @Test func aDamagedNoteReadsAsNone() {
        for stored in ["", "l|", "x||UTC", "l|maybe|UTC", "l||"] {
            #expect(ScheduleNote(stored: stored) == nil, "\(stored)")
        }
        #expect(ScheduleNote.detail(stored: nil, dueAt: 1) == nil)
    }
}
