import Foundation

/// Wall-clock arithmetic in one time zone of the system's time-zone database (Foundation's
/// `TimeZone`), on instants in milliseconds since 1970 (the database's unit). Pure: the same
/// zone, date and time always give the same instant.
package struct ZoneClock: Sendable {
    /// The zone's name as the device registered it (or the fallback the message named).
    package let identifier: String
    private let zone: TimeZone

    /// The zone of that name, or nil when the system's database does not know it
    /// (``isKnown(_:)``).
    package init?(_ identifier: String) {
        guard Self.isKnown(identifier), let zone = TimeZone(identifier: identifier) else { return nil }
        self.identifier = identifier
        self.zone = zone
    }

    /// UTC.
    package static let utc = ZoneClock("UTC")!

    /// Whether the system's time-zone database knows this name, spelled as it spells it
    /// (`Europe/Paris`, `Asia/Kathmandu`, `Etc/GMT+2`, `UTC`): not `europe/paris`, and not an
    /// offset such as `GMT+2`, which Foundation reads as another name.
    package static func isKnown(_ identifier: String) -> Bool {
        guard (1...64).contains(identifier.utf8.count), let zone = TimeZone(identifier: identifier) else { return false }
        return zone.identifier == identifier || identifier == "UTC"
    }

    /// Seconds east of UTC at an instant in seconds.
    private func offset(atSecond second: Int) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(second)))
    }

    /// What the wall clock here shows at an instant: the date and the seconds into that day.
    package func wall(at milliseconds: Int) -> (date: CivilDate, seconds: Int) {
        let second = Self.floorDivide(milliseconds, 1000)
        let local = second + offset(atSecond: second)
        let days = Self.floorDivide(local, 86_400)
        return (CivilDate(daysSinceEpoch: days), local - days * 86_400)
    }

    /// The instant (milliseconds) the wall clock here shows `time` on `date`. When it shows it
    /// twice (the hour repeated as clocks go back) the first; when it never does (the hour
    /// skipped as clocks go forward) the first instant after, which is when the skipped hour
    /// ends (a skipped 02:30 is 03:00).
    package func instant(_ date: CivilDate, _ time: WallTime) -> Int {
        let local = date.daysSinceEpoch * 86_400 + time.seconds
        // Every offset in force within two days of it (transitions are never closer than that to
        // each other in the database, except for no zone we know of).
        var offsets: Set<Int> = []
        for step in -4...4 { offsets.insert(offset(atSecond: local + step * 43_200)) }
        let valid = offsets.map { local - $0 }.filter { local - offset(atSecond: $0) == $0 }
        if let first = valid.min() { return first * 1000 }
        // Skipped: the first second whose wall-clock reading is at or past it. Readings rise
        // steadily across a gap, so a bisection between the offsets finds it.
        var low = local - offsets.max()!  // reads before it
        var high = local - offsets.min()!  // reads after it
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if middle + offset(atSecond: middle) >= local { high = middle } else { low = middle }
        }
        return high * 1000
    }

    /// The first instant at or after `milliseconds` when the wall clock here shows `time`: today's,
    /// or tomorrow's when today's has passed.
    package func next(_ time: WallTime, atOrAfter milliseconds: Int) -> Int {
        let today = wall(at: milliseconds).date
        let instant = instant(today, time)
        return instant >= milliseconds ? instant : self.instant(today.adding(days: 1), time)
    }

    package static func floorDivide(_ a: Int, _ b: Int) -> Int {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }
}
