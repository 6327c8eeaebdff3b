import NotibaseCore

extension Int {
    /// Milliseconds since 1970 as an RFC 3339 time in UTC (milliseconds only when there is a
    /// fraction).
    package var timestamp: String { Timestamp.format(milliseconds: self) }
}
