/// An app's settings for the pace of its messages: its quiet hours (which messages opt into) and
/// the rate of messages that name none. Stored with the app as JSON.
package struct AppPacing: Sendable, Hashable, Codable {
    package var quietHours: QuietHours?
    /// Deliveries a minute for each message that names no rate of its own.
    package var defaultRatePerMinute: Int?

    package init(quietHours: QuietHours? = nil, defaultRatePerMinute: Int? = nil) {
        self.quietHours = quietHours
        self.defaultRatePerMinute = defaultRatePerMinute
    }
}
