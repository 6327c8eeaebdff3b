/// A time of day on a wall clock, to the minute (`09:00`), in no particular time zone.
package struct WallTime: Sendable, Hashable, Comparable {
    package var hour: Int
    package var minute: Int

    /// `HH:mm`, 00:00 to 23:59.
    package init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.utf8.count == 2 && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
              let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        self.init(hour: hour, minute: minute)
    }

    package init(hour: Int, minute: Int) {
        self.hour = hour
        self.minute = minute
    }

    /// Seconds since midnight.
    package var seconds: Int { hour * 3600 + minute * 60 }

    package var text: String { (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)" }

    package static func < (a: WallTime, b: WallTime) -> Bool { a.seconds < b.seconds }
}

extension WallTime: TextCodable {
    package static let expected = "a time of day such as 09:00 (HH:mm, 24-hour)"
}

/// A day of the proleptic Gregorian calendar (`2026-12-24`), in no particular time zone.
package struct CivilDate: Sendable, Hashable, Comparable {
    package var year: Int
    package var month: Int
    package var day: Int

    /// `YYYY-MM-DD`, a day that exists.
    package init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].utf8.count == 4, parts[1].utf8.count == 2, parts[2].utf8.count == 2,
              parts.allSatisfy({ $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        // A day that does not exist (02-30) comes back as another one.
        guard (1...12).contains(month), (1...31).contains(day), CivilDate(daysSinceEpoch: date.daysSinceEpoch) == date else { return nil }
        self = date
    }

    package init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days since 1970-01-01 (negative before), by the usual era arithmetic of the Gregorian calendar.
    package var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    package init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }

    package func adding(days: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + days) }

    package var text: String {
        let y = String(year), m = String(month), d = String(day)
        return String(repeating: "0", count: max(0, 4 - y.count)) + y + "-" + (month < 10 ? "0" : "") + m + "-" + (day < 10 ? "0" : "") + d
    }

    package static func < (a: CivilDate, b: CivilDate) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }
}

extension CivilDate: TextCodable {
    package static let expected = "a date such as 2026-12-24 (YYYY-MM-DD)"
}

/// A value that JSON holds as a string in one format.
package protocol TextCodable: Codable {
    init?(_ text: String)
    var text: String { get }
    /// What the string must look like, for the error.
    static var expected: String { get }
}

extension TextCodable {
    package init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected \(Self.expected)"))
        }
        self = value
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(text)
    }
}
