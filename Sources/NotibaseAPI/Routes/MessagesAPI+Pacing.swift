import Foundation
import NotibaseDomain
import NotibaseHTTP
import NotibaseWebhooks
import NotibaseServices

extension MessagesAPI.SendBody {
    /// `localTime` (`09:00`), `localDate` (`2026-12-24`), `fallbackTimeZone`, `ratePerMinute`,
    /// `quietHours` (`true` opts into the app's).
    package mutating func decodePacing(_ c: KeyedDecodingContainer<CodingKeys>) throws {
        let localTime = try c.decodeIfPresent(WallTime.self, forKey: .localTime)
        let localDate = try c.decodeIfPresent(CivilDate.self, forKey: .localDate)
        let fallbackTimeZone = try c.decodeIfPresent(String.self, forKey: .fallbackTimeZone)
        let ratePerMinute = try c.decodeIfPresent(Int.self, forKey: .ratePerMinute)
        send.quietHours = try c.decodeIfPresent(Bool.self, forKey: .quietHours)
        (send.localTime, send.localDate, send.fallbackTimeZone, send.ratePerMinute) = (localTime, localDate, fallbackTimeZone, ratePerMinute)
        try check(localTime == nil || send.sendAt == nil, .localTime, c,
                  "cannot be given with sendAt: give sendAt for one instant everywhere, or localTime for each device's own clock")
        try check(localDate == nil || localTime != nil, .localDate, c, "needs localTime, the time of day on that date")
        try check(fallbackTimeZone.map(ZoneClock.isKnown) ?? true, .fallbackTimeZone, c,
                  "must be a time zone of the IANA database this server knows, spelled as it is (such as Europe/Paris or UTC)")
        try check(ratePerMinute.map { (1...1_000_000).contains($0) } ?? true, .ratePerMinute, c, "must be from 1 to 1000000 deliveries a minute")
    }
}
