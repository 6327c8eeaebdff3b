import FoundationEssentials

/// RFC 3339 timestamps (`2026-12-01T09:30:00Z`, with optional fractional seconds and offset), the
/// one time format on Notibase's wire.
public enum Timestamp {
    /// Parses an RFC 3339 time; nil when it is not one.
    public static func parse(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        return try? fractional.parse(text)
    }

    /// Formats a time in UTC, with milliseconds when it has a fraction.
    public static func format(_ date: Date) -> String {
        let whole = date.timeIntervalSince1970.rounded(.down) == date.timeIntervalSince1970
        return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: !whole))
    }
}
