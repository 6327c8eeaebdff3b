import Foundation

extension MessagesAPI.SendBody {
    /// `localTime` (`09:00`), `localDate` (`2026-12-24`), `fallbackTimeZone`, `ratePerMinute`,
    /// `quietHours` (`true` opts into the app's).
    mutating func decodePacing(_ c: KeyedDecodingContainer<CodingKeys>) throws {
        localTime = try c.decodeIfPresent(WallTime.self, forKey: .localTime)
        localDate = try c.decodeIfPresent(CivilDate.self, forKey: .localDate)
        fallbackTimeZone = try c.decodeIfPresent(String.self, forKey: .fallbackTimeZone)
        ratePerMinute = try c.decodeIfPresent(Int.self, forKey: .ratePerMinute)
        quietHours = try c.decodeIfPresent(Bool.self, forKey: .quietHours)
        try check(localTime == nil || sendAt == nil, .localTime, c,
                  "cannot be given with sendAt: give sendAt for one instant everywhere, or localTime for each device's own clock")
        try check(localDate == nil || localTime != nil, .localDate, c, "needs localTime, the time of day on that date")
        try check(fallbackTimeZone.map(ZoneClock.isKnown) ?? true, .fallbackTimeZone, c,
                  "must be a time zone of the IANA database this server knows, spelled as it is (such as Europe/Paris or UTC)")
        try check(ratePerMinute.map { (1...1_000_000).contains($0) } ?? true, .ratePerMinute, c, "must be from 1 to 1000000 deliveries a minute")
    }
}

extension MessagesAPI {
    /// The pacing a message asks for, with its app's settings: its quiet hours when it opts in,
    /// its default rate when it names none. Nil when nothing paces it (it is sent as it always was).
    static func pacing(_ body: SendBody, app: AppPacing, now: Int) throws -> Pacing? {
        var pacing = Pacing(
            localTime: body.localTime, localDate: body.localDate, fallbackTimeZone: body.fallbackTimeZone,
            ratePerMinute: body.ratePerMinute ?? app.defaultRatePerMinute)
        if body.quietHours == true {
            guard let quiet = app.quietHours else {
                throw APIError.invalid("quietHours", "asks for the app's quiet hours, and the app has none: set them with PATCH /v1/apps/{appId} first")
            }
            pacing.quietHours = quiet
        }
        if pacing.hasPassedEverywhere(now: now) {
            throw APIError.invalid("localDate", "has passed in every time zone: \(body.localTime?.text ?? "") on \(body.localDate?.text ?? "") is over everywhere")
        }
        return pacing.localTime == nil && pacing.ratePerMinute == nil && pacing.quietHours == nil ? nil : pacing
    }
}
