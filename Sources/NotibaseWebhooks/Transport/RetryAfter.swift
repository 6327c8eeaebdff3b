package import Foundation
import NotibaseDomain
import NotibaseStore
import NotibaseOutbound

/// `Retry-After` (RFC 9110): a number of seconds, or an HTTP date (IMF-fixdate, such as
/// `Sun, 06 Nov 1994 08:49:37 GMT`, the form senders must use) from which now is subtracted.
package enum RetryAfter {
    /// The delay `value` asks for at `now`; zero for a date already past; nil when it is neither form.
    package static func parse(_ value: String, now: Date) -> Duration? {
        let value = value.trimmingCharacters(in: .whitespaces)
        if !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            return Int(value.prefix(10)).map { .seconds($0) }
        }
        guard let date = httpDate(value) else { return nil }
        let seconds = date - now.timeIntervalSince1970
        return seconds <= 0 ? .zero : .seconds(Int(seconds.rounded(.up)))
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Seconds since 1970 of an IMF-fixdate, or nil.
    package static func httpDate(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT",
              let day = Int(parts[1]), (1...31).contains(day),
              let month = months.firstIndex(of: String(parts[2])),
              let year = Int(parts[3]), (1970...9999).contains(year) else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3, (0...23).contains(time[0]), (0...59).contains(time[1]), (0...60).contains(time[2]) else { return nil }
        let days = daysSince1970(year: year, month: month + 1, day: day)
        return Double(days * 86_400 + time[0] * 3_600 + time[1] * 60 + time[2])
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
