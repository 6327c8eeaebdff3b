import FoundationEssentials

/// RFC 3339 timestamps (`2026-12-01T09:30:00Z`, with optional fractional seconds and offset), the
/// one time format on Notibase's wire.
public enum Timestamp {
    /// Parses an RFC 3339 time; nil when it is not one (every field must be in range: Foundation's
    /// parser alone would roll `12:99` over to `13:39`).
    public static func parse(_ text: String) -> Date? {
        guard isValid(text) else { return nil }
        if let date = try? Date(text, strategy: .iso8601) { return date }
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        return try? fractional.parse(text)
    }

    /// Whether `text` is an RFC 3339 date-time (`2026-12-01T09:30:00Z`, `…:00.250+02:00`) with
    /// every field in range and the day valid for its month.
    public static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return false }
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
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else { return false }
        var index = 19
        if byte(index, is: ".") {
            index += 1
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            guard index > start else { return false }
        }
        if byte(index, is: "Z") { return index + 1 == bytes.count }
        guard byte(index, is: "+") || byte(index, is: "-"), let offsetHours = number(index + 1, 2), byte(index + 3, is: ":"),
              let offsetMinutes = number(index + 4, 2), offsetHours <= 23, offsetMinutes <= 59 else { return false }
        return index + 6 == bytes.count
    }

    /// Formats a time in UTC, with milliseconds when it has a fraction.
    public static func format(_ date: Date) -> String {
        let whole = date.timeIntervalSince1970.rounded(.down) == date.timeIntervalSince1970
        return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: !whole))
    }
}
