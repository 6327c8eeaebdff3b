/// When a message's deliveries go out besides its send time: each device at a wall-clock time in
/// its own time zone, spread at a rate, outside the app's quiet hours. Stored with the message;
/// fan-out turns it into each delivery's due time (``DeliverySchedule``).
package struct Pacing: Sendable, Hashable, Codable {
    /// Each device at this time of day in its own time zone.
    package var localTime: WallTime?
    /// On this date in each zone; without it, the next time each device's clock shows
    /// ``localTime`` after the message was sent (today, or tomorrow when it has passed).
    package var localDate: CivilDate?
    /// The zone of devices that registered none (or one the server does not know); UTC if nil.
    package var fallbackTimeZone: String?
    /// At most this many deliveries a minute.
    package var ratePerMinute: Int?
    /// The app's quiet hours as they were when the message was sent, when it opted in.
    package var quietHours: QuietHours?
    /// How many devices of the audience had no time zone of their own when it was sent.
    package var timeZoneFallbacks: Int?
    /// The rate's progress, advanced by each fan-out batch.
    package var plan: RatePlan?

    /// Whether each device's time zone matters.
    package var usesTimeZones: Bool { localTime != nil || quietHours != nil }

    /// The zone deliveries to devices without a known one follow.
    package var fallbackClock: ZoneClock { fallbackTimeZone.flatMap(ZoneClock.init) ?? .utc }

    /// Offsets east of UTC span −12:00 to +14:00: a wall-clock time happens somewhere within this
    /// much before and after it happens at UTC.
    package static let earliestOffset = 14 * 3_600_000
    package static let latestOffset = 12 * 3_600_000

    /// When fan-out may start for a message sent at `now` (ms): at once, or for a dated local
    /// time, when that time first comes anywhere on Earth (never before `now`).
    package func fanOutStart(now: Int) -> Int {
        guard let localTime, let localDate else { return now }
        return max(now, ZoneClock.utc.instant(localDate, localTime) - Self.earliestOffset)
    }

    /// Whether a dated local time has already passed everywhere at `now`.
    package func hasPassedEverywhere(now: Int) -> Bool {
        guard let localTime, let localDate else { return false }
        return ZoneClock.utc.instant(localDate, localTime) + Self.latestOffset < now
    }

    package init(localTime: WallTime? = nil, localDate: CivilDate? = nil, fallbackTimeZone: String? = nil, ratePerMinute: Int? = nil, quietHours: QuietHours? = nil, timeZoneFallbacks: Int? = nil, plan: RatePlan? = nil) {
        self.localTime = localTime
        self.localDate = localDate
        self.fallbackTimeZone = fallbackTimeZone
        self.ratePerMinute = ratePerMinute
        self.quietHours = quietHours
        self.timeZoneFallbacks = timeZoneFallbacks
        self.plan = plan
    }
}
