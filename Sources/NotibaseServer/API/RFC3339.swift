import Foundation
import NotibaseCore

/// A strict check of RFC 3339 date-times (`2026-12-01T09:30:00Z`, `…:00.250+02:00`): every field
/// in range, the day valid for its month. The parser behind `Timestamp.parse` rolls an invalid
/// time over (12:99 becomes 13:39) instead of refusing it, so the API checks first.
enum RFC3339 {
    static func isValid(_ text: String) -> Bool {
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

    /// The date of a valid RFC 3339 text; nil otherwise.
    static func parse(_ text: String) -> Date? {
        isValid(text) ? Timestamp.parse(text) : nil
    }

    /// Throws a decoding error at `key` when the JSON object `value` has a `field` that is not a
    /// valid RFC 3339 time.
    static func check<Key: CodingKey>(_ value: JSONValue, field: String, path: Key, _ c: KeyedDecodingContainer<Key>) throws {
        guard case .object(let object) = value, case .string(let text)? = object[field] else { return }
        if parse(text) == nil {
            throw DecodingError.dataCorruptedError(forKey: path, in: c, debugDescription: "\(field) must be an RFC 3339 time such as 2026-12-01T09:30:00Z, not \"\(text)\"")
        }
    }
}
