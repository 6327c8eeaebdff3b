import Foundation
import Testing
import NotibaseCore

@Suite("Timestamps written")
struct TimestampFormattingTests {
    @Test("a date is written as Foundation's ISO 8601 style writes it: UTC, milliseconds truncated, only when there is a fraction",
          arguments: [0, 0.9996, 1.0004, -0.0015, 951_782_400, 1_709_251_199.9999, 1_800_000_000.1239, 4_102_444_799.5, -2_208_988_800])
    func dateAsFoundationWritesIt(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        let whole = seconds.rounded(.down) == seconds
        #expect(Timestamp.format(date) == date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: !whole)))
    }

    @Test("log lines always carry milliseconds")
    func alwaysMilliseconds() {
        #expect(Timestamp.format(milliseconds: 1_800_000_000_000, alwaysMilliseconds: true) == "2027-01-15T08:00:00.000Z")
        #expect(Timestamp.format(milliseconds: 1_800_000_000_000) == "2027-01-15T08:00:00Z")
    }
}
