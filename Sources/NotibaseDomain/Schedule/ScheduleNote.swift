import NotibaseCore

/// What pacing decided for one delivery, in the form stored with it: which of `localTime`,
/// `quietHours` and `rate` moved it, whether its zone was the message's fallback, and the zone
/// (`l,q|f|Europe/Paris`). The `scheduled` entry of its history is made from this and the time
/// it was first due when the log is read. Every delivery of a paced message carries one, and each
/// of a delivery's three writes (fan-out, claim, outcome) rewrites its row: the entry as a JSON
/// object made the row half again as large, and a paced send a quarter slower.
package struct ScheduleNote: Sendable, Equatable {
    package var decidedBy: [String]
    package var timeZone: String
    package var fellBack: Bool

    private static let codes: [(name: String, code: Character)] = [("localTime", "l"), ("quietHours", "q"), ("rate", "r")]

    package var stored: String {
        let codes = decidedBy.compactMap { name in Self.codes.first { $0.name == name }?.code }
        return String(codes.map(String.init).joined(separator: ",")) + "|" + (fellBack ? "f" : "") + "|" + timeZone
    }

    package init(decidedBy: [String], timeZone: String, fellBack: Bool) {
        self.decidedBy = decidedBy
        self.timeZone = timeZone
        self.fellBack = fellBack
    }

    package init?(stored: String) {
        let parts = stored.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[2].isEmpty else { return nil }
        var names: [String] = []
        for code in parts[0].split(separator: ",") {
            guard code.count == 1, let name = Self.codes.first(where: { $0.code == code.first })?.name else { return nil }
            names.append(name)
        }
        guard parts[1].isEmpty || parts[1] == "f" else { return nil }
        self.init(decidedBy: names, timeZone: String(parts[2]), fellBack: parts[1] == "f")
    }

    /// The `scheduled` entry's detail for a delivery first due at `dueAt` (ms).
    package func detail(dueAt: Int) -> DeliveryEventDetail {
        DeliveryEventDetail(
            dueAt: Timestamp.format(milliseconds: dueAt), timeZone: timeZone,
            localTime: ZoneClock(timeZone).map { DeliverySchedule.local(dueAt, $0) }, timeZoneFallback: fellBack ? true : nil,
            decidedBy: decidedBy)
    }

    /// The `scheduled` detail of a stored delivery: its note (or, written before notes, the
    /// detail itself as JSON) and when it was first due.
    package static func detail(stored: String?, dueAt: Int?) -> DeliveryEventDetail? {
        guard let stored else { return nil }
        if stored.hasPrefix("{") { return StoredJSON.decode(DeliveryEventDetail.self, stored) }
        guard let note = ScheduleNote(stored: stored), let dueAt else { return nil }
        return note.detail(dueAt: dueAt)
    }
}
