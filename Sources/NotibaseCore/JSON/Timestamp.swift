#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// RFC 3339 timestamps (`2026-12-01T09:30:00Z`, with optional fractional seconds and offset), the
/// one time format on Notibase's wire.
public enum Timestamp {
    /// The times accepted, in seconds since 1970: 2000-01-01T00:00:00Z to 2100-01-01T00:00:00Z.
    /// Nothing Notibase is told about lies outside, and every time inside is written back as it
    /// was read (four-digit years, none before 1970).
    public static let accepted: ClosedRange<Double> = 946_684_800...4_102_444_800

    /// What an accepted time looks like, for error messages.
    public static let expected = "an RFC 3339 time from 2000-01-01T00:00:00Z to 2100-01-01T00:00:00Z, such as 2026-12-01T09:30:00Z"

    /// Parses an RFC 3339 time; nil when it is not one, or is outside ``accepted``. Every field
    /// must be in range (Foundation's parser alone would roll `12:99` over to `13:39`), and any
    /// offset RFC 3339 allows is applied (up to ±23:59; Foundation's time zones stop at ±18 hours).
    public static func parse(_ text: String) -> Date? {
        guard let seconds = fields(text)?.secondsSince1970, accepted.contains(seconds) else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// Whether `text` is an RFC 3339 date-time (`2026-12-01T09:30:00Z`, `…:00.250+02:00`) with
    /// every field in range, the day valid for its month, and the time within ``accepted``.
    public static func isValid(_ text: String) -> Bool {
        parse(text) != nil
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

    /// Formats a time in UTC, with milliseconds (truncated) when it has a fraction.
    public static func format(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        return format(milliseconds: Int((seconds * 1000).rounded(.down)), alwaysMilliseconds: seconds.rounded(.down) != seconds)
    }

    /// Formats milliseconds since 1970 in UTC, with `.mmm` when they are not whole seconds or when
    /// `alwaysMilliseconds` (log lines).
    package static func format(milliseconds: Int, alwaysMilliseconds: Bool = false) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        append(milliseconds: milliseconds, alwaysMilliseconds: alwaysMilliseconds, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``format(milliseconds:alwaysMilliseconds:)`` written at the end of `bytes`, for writers
    /// that build a whole answer in one buffer. By hand: it is on every API answer and log line.
    package static func append(milliseconds: Int, alwaysMilliseconds: Bool = false, to bytes: inout [UInt8]) {
        let (days, dayMilliseconds) = milliseconds.floorDividedBy(86_400_000)
        let (year, month, day) = civilDate(daysSince1970: days)
        let secondOfDay = dayMilliseconds / 1000
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(48 + (value / divisor) % 10))
                divisor /= 10
            }
        }
        digits(year, 4); bytes.append(UInt8(ascii: "-"))
        digits(month, 2); bytes.append(UInt8(ascii: "-"))
        digits(day, 2); bytes.append(UInt8(ascii: "T"))
        digits(secondOfDay / 3600, 2); bytes.append(UInt8(ascii: ":"))
        digits(secondOfDay / 60 % 60, 2); bytes.append(UInt8(ascii: ":"))
        digits(secondOfDay % 60, 2)
        if alwaysMilliseconds || dayMilliseconds % 1000 != 0 {
            bytes.append(UInt8(ascii: "."))
            digits(dayMilliseconds % 1000, 3)
        }
        bytes.append(UInt8(ascii: "Z"))
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (H. Hinnant's
    /// `civil_from_days`).
    private static func civilDate(daysSince1970: Int) -> (year: Int, month: Int, day: Int) {
        let (era, dayOfEra) = (daysSince1970 + 719_468).floorDividedBy(146_097)
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

private extension Int {
    /// The quotient rounded down and the remainder that goes with it (never negative).
    func floorDividedBy(_ divisor: Int) -> (quotient: Int, remainder: Int) {
        let remainder = self % divisor
        return remainder < 0 ? (self / divisor - 1, remainder + divisor) : (self / divisor, remainder)
    }
}
