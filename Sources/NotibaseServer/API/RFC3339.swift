import Foundation
import NotibaseCore

/// RFC 3339 date-times in the API: `Timestamp`'s strict parsing, and a check of times nested in a
/// JSON object, for error messages that name the field.
enum RFC3339 {
    static func isValid(_ text: String) -> Bool {
        Timestamp.isValid(text)
    }

    /// The date of a valid RFC 3339 text; nil otherwise.
    static func parse(_ text: String) -> Date? {
        Timestamp.parse(text)
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
