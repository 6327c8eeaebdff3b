/// An app's quiet hours: a window of the wall clock (`22:00` to `08:00`, which spans midnight, or
/// `13:00` to `14:00`) during which deliveries of the messages that opt in wait, in each device's
/// own time zone.
package struct QuietHours: Sendable, Hashable, Codable {
    package var start: WallTime
    package var end: WallTime

    /// When the window holding `milliseconds` ends in `clock`'s zone, or nil when that instant is
    /// outside it. A window spanning midnight ends on the next day when the instant is before
    /// midnight. The end follows the zone's clock changes (``ZoneClock/instant(_:_:)``).
    package func end(ifInside milliseconds: Int, in clock: ZoneClock) -> Int? {
        let (date, seconds) = clock.wall(at: milliseconds)
        let (start, end) = (self.start.seconds, self.end.seconds)
        if start == end { return nil }  // an empty window (refused when set)
        if start < end {
            guard seconds >= start && seconds < end else { return nil }
            return later(clock.instant(date, self.end), milliseconds)
        }
        if seconds >= start { return later(clock.instant(date.adding(days: 1), self.end), milliseconds) }
        if seconds < end { return later(clock.instant(date, self.end), milliseconds) }
        return nil
    }

    /// The end is after the instant however the zone's clock changed in between.
    private func later(_ end: Int, _ instant: Int) -> Int { max(end, instant) }

    /// `22:00–08:00`.
    package var text: String { "\(start.text)–\(end.text)" }

    package init(start: WallTime, end: WallTime) {
        self.start = start
        self.end = end
    }
}
