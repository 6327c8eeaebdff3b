import Foundation
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

/// Wall-clock times in time zones, on the system's time-zone database (expected instants checked
/// against Python's zoneinfo on the same tz data).
@Suite("Zone clock (pure)")
struct ZoneClockTests {
    @Test(arguments: [
        ("Europe/Paris", "2026-12-01", "09:00", "2026-12-01T08:00:00Z"),
        ("America/New_York", "2026-12-01", "09:00", "2026-12-01T14:00:00Z"),
        // 30- and 45-minute offsets.
        ("Asia/Kathmandu", "2026-12-01", "09:00", "2026-12-01T03:15:00Z"),
        ("Pacific/Chatham", "2026-12-01", "09:00", "2026-11-30T19:15:00Z"),
        ("America/St_Johns", "2026-12-01", "09:00", "2026-12-01T12:30:00Z"),
        ("Australia/Adelaide", "2026-12-01", "09:00", "2026-11-30T22:30:00Z"),
        // Either side of the date line: the same wall-clock time, 25 hours apart.
        ("Pacific/Kiritimati", "2026-12-01", "09:00", "2026-11-30T19:00:00Z"),
        ("Pacific/Pago_Pago", "2026-12-01", "09:00", "2026-12-01T20:00:00Z"),
        ("UTC", "2026-12-01", "09:00", "2026-12-01T09:00:00Z"),
    ])
    func aWallClockTimeIsOneInstantInEachZone(zone name: String, day: String, at: String, expected: String) {
        #expect(zone(name).instant(date(day), time(at)) == ms(expected))
    }

    @Test(arguments: [
        // Clocks go forward 02:00 → 03:00: a skipped 02:30 is sent when the gap ends.
        ("Europe/Paris", "2026-03-29", "02:30", "2026-03-29T01:00:00Z"),
        ("America/New_York", "2026-03-08", "02:30", "2026-03-08T07:00:00Z"),
        // Lord Howe moves by 30 minutes: 02:00 → 02:30.
        ("Australia/Lord_Howe", "2026-10-04", "02:15", "2026-10-03T15:30:00Z"),
        // Samoa skipped 30 December 2011 whole, crossing the date line.
        ("Pacific/Apia", "2011-12-30", "09:00", "2011-12-30T10:00:00Z"),
    ])
    func aSkippedTimeIsTheFirstInstantAfterIt(zone name: String, day: String, at: String, expected: String) {
        #expect(zone(name).instant(date(day), time(at)) == ms(expected))
    }

    @Test(arguments: [
        // Clocks go back 03:00 → 02:00 (Paris), 02:00 → 01:00 (New York), 02:00 → 01:30 (Lord
        // Howe): a repeated time is its first occurrence, so it is sent once.
        ("Europe/Paris", "2026-10-25", "02:30", "2026-10-25T00:30:00Z"),
        ("America/New_York", "2026-11-01", "01:30", "2026-11-01T05:30:00Z"),
        ("Australia/Lord_Howe", "2026-04-05", "01:45", "2026-04-04T14:45:00Z"),
    ])
    func aRepeatedTimeIsItsFirstOccurrence(zone name: String, day: String, at: String, expected: String) {
        #expect(zone(name).instant(date(day), time(at)) == ms(expected))
    }

    @Test func theNextOccurrenceIsTodayOrTomorrow() {
        let paris = zone("Europe/Paris")
        #expect(paris.next(time("09:00"), atOrAfter: ms("2026-12-01T07:30:00Z")) == ms("2026-12-01T08:00:00Z"))
        #expect(paris.next(time("09:00"), atOrAfter: ms("2026-12-01T08:00:00Z")) == ms("2026-12-01T08:00:00Z"))
        #expect(paris.next(time("09:00"), atOrAfter: ms("2026-12-01T08:00:00.001Z")) == ms("2026-12-02T08:00:00Z"))
        // Already the next day in Kiritimati.
        #expect(zone("Pacific/Kiritimati").next(time("09:00"), atOrAfter: ms("2026-12-01T12:00:00Z")) == ms("2026-12-01T19:00:00Z"))
    }

    @Test func theWallClockReadsTheLocalDateAndTime() {
        let (day, seconds) = zone("Pacific/Chatham").wall(at: ms("2026-11-30T19:15:30Z"))
        #expect(day == date("2026-12-01"))
        #expect(seconds == 9 * 3600 + 30)
        #expect(DeliverySchedule.local(ms("2026-03-29T01:00:00Z"), zone("Europe/Paris")) == "2026-03-29T03:00:00")
    }

    @Test(arguments: ["Europe/Paris", "Asia/Kolkata", "Asia/Calcutta", "America/Argentina/Buenos_Aires", "Etc/GMT+2", "UTC", "Etc/UTC", "GMT"])
    func namesOfTheDatabaseAreKnown(_ name: String) {
        #expect(ZoneClock.isKnown(name))
    }

    @Test(arguments: ["europe/paris", "Mars/Olympus_Mons", "GMT+2", "+02:00", "", "Europe/Paris ", String(repeating: "A", count: 65)])
    func otherNamesAreNot(_ name: String) {
        #expect(!ZoneClock.isKnown(name))
        #expect(ZoneClock(name) == nil)
    }

    @Test func datesAndTimesParseStrictly() {
        #expect(CivilDate("2028-02-29") == CivilDate(year: 2028, month: 2, day: 29))
        for bad in ["2026-02-29", "2026-13-01", "2026-1-01", "26-01-01", "2026-01-01T00:00", ""] { #expect(CivilDate(bad) == nil, "\(bad)") }
        #expect(WallTime("23:59") == WallTime(hour: 23, minute: 59))
        for bad in ["24:00", "9:00", "09:60", "09:00:00", "0900", ""] { #expect(WallTime(bad) == nil, "\(bad)") }
        for days in [-800_000, -1, 0, 1, 20_788, 2_000_000] { #expect(CivilDate(daysSinceEpoch: days).daysSinceEpoch == days) }
        #expect(date("1970-01-01").daysSinceEpoch == 0)
        #expect(date("2026-12-01").text == "2026-12-01")
    }
}
