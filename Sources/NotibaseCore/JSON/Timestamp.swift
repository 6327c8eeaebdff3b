#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// RFC 3339 timestamps (`2026-12-01T09:30:00Z`, with optional fractional seconds and offset), the
/// one time format on Notibase's wire.
public enum Timestamp {
    /// Parses an RFC 3339 time; nil when it is not one. Every field must be in range (Foundation's
    /// parser alone would roll `12:99` over to `13:39`), and any offset RFC 3339 allows is applied
    /// (up to ±23:59; Foundation's time zones stop at ±18 hours).
    public static func parse(_ text: String) -> Date? {
        fields(text).map { Date(timeIntervalSince1970: $0.secondsSince1970) }
    }

    /// Whether `text` is an RFC 3339 date-time (`2026-12-01T09:30:00Z`, `…:00.250+02:00`) with
    /// every field in range and the day valid for its month.
    public static func isValid(_ text: String) -> Bool {
        fields(text) != nil
    }

    private struct Fields: Equatable {
        var year, month, day, hour, minute, second: Int
        var fraction: Double
        /// East of UTC, in seconds.
        var offset: Int

        var secondsSince1970: Double {
            // Days from 1970-01-01 to the civil date (proleptic Gregorian), after Howard Hinnant's
            // days_from_civil.
            let shiftedYear = month <= 2 ? year - 1 : year
            let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
            let yearOfEra = shiftedYear - era * 400
            let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            let days = era * 146_097 + dayOfEra - 719_468
            let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset
            return Double(seconds) + fraction
        }
    }

    private static func fields(_ text: String) -> Fields? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<(start + count)] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        func byte(_ index: Int, is expected: Character) -> Bool {
            index < bytes.count && bytes[index] == expected.asciiValue
        }
        guard let year = number(0, 4), byte(4, is: "-"), let month = number(5, 2), byte(7, is: "-"), let day = number(8, 2),
              byte(10, is: "T"), let hour = number(11, 2), byte(13, is: ":"), let minute = number(14, 2), byte(16, is: ":"),
              let second = number(17, 2),
              (1...12).contains(month), hour <= 23, minute <= 59, second <= 59
        else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else { return nil }
        var fields = Fields(year: year, month: month, day: day, hour: hour, minute: minute, second: second, fraction: 0, offset: 0)
        var index = 19
        if byte(index, is: ".") {
            index += 1
            let start = index
            var scale = 0.1
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                fields.fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        if byte(index, is: "Z") { return index + 1 == bytes.count ? fields : nil }
        let sign = byte(index, is: "+") ? 1 : byte(index, is: "-") ? -1 : 0
        guard sign != 0, let offsetHours = number(index + 1, 2), byte(index + 3, is: ":"), let offsetMinutes = number(index + 4, 2),
              offsetHours <= 23, offsetMinutes <= 59, index + 6 == bytes.count
        else { return nil }
        fields.offset = sign * (offsetHours * 3_600 + offsetMinutes * 60)
        return fields
    }

    /// Formats a time in UTC, with milliseconds when it has a fraction.
    public static func format(_ date: Date) -> String {
        let whole = date.timeIntervalSince1970.rounded(.down) == date.timeIntervalSince1970
        return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: !whole))
    }
}
