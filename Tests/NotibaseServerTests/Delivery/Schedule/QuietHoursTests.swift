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

@Suite("Quiet hours (pure)")
struct QuietHoursTests {
    let night = QuietHours(start: time("22:00"), end: time("08:00"))
    let paris = zone("Europe/Paris")

    @Test func aTimeInsideANightWindowWaitsUntilItEnds() {
        // 23:30 in Paris: until 08:00 the next day.
        #expect(night.end(ifInside: ms("2026-12-01T22:30:00Z"), in: paris) == ms("2026-12-02T07:00:00Z"))
        // 03:00 in Paris: until 08:00 the same day.
        #expect(night.end(ifInside: ms("2026-12-02T02:00:00Z"), in: paris) == ms("2026-12-02T07:00:00Z"))
        // 22:00 exactly is inside, 08:00 exactly is not.
        #expect(night.end(ifInside: ms("2026-12-01T21:00:00Z"), in: paris) == ms("2026-12-02T07:00:00Z"))
        #expect(night.end(ifInside: ms("2026-12-02T07:00:00Z"), in: paris) == nil)
    }

    @Test func aTimeOutsideIsNotMoved() {
        #expect(night.end(ifInside: ms("2026-12-01T11:00:00Z"), in: paris) == nil)
        let lunch = QuietHours(start: time("12:00"), end: time("14:00"))
        #expect(lunch.end(ifInside: ms("2026-12-01T10:00:00Z"), in: paris) == nil)  // 11:00
        #expect(lunch.end(ifInside: ms("2026-12-01T11:30:00Z"), in: paris) == ms("2026-12-01T13:00:00Z"))  // 12:30 → 14:00
        #expect(QuietHours(start: time("08:00"), end: time("08:00")).end(ifInside: ms("2026-12-01T07:00:00Z"), in: paris) == nil)
    }

    @Test func theWindowIsEachDevicesOwn() {
        // 23:00 UTC is quiet in Paris (midnight) but 18:00 in New York and 04:45 in Kathmandu.
        let instant = ms("2026-12-01T23:00:00Z")
        #expect(night.end(ifInside: instant, in: paris) == ms("2026-12-02T07:00:00Z"))
        #expect(night.end(ifInside: instant, in: zone("America/New_York")) == nil)
        #expect(night.end(ifInside: instant, in: zone("Asia/Kathmandu")) == ms("2026-12-02T02:15:00Z"))
    }

    @Test func theEndFollowsAClockChange() {
        // The night of 28–29 March 2026 in Paris: 08:00 comes at 06:00 UTC (summer time).
        #expect(night.end(ifInside: ms("2026-03-28T22:00:00Z"), in: paris) == ms("2026-03-29T06:00:00Z"))
        // An end inside the skipped hour (02:30) is when the hour ends.
        let early = QuietHours(start: time("22:00"), end: time("02:30"))
        #expect(early.end(ifInside: ms("2026-03-28T23:30:00Z"), in: paris) == ms("2026-03-29T01:00:00Z"))
    }
}
