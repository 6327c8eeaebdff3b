import Foundation

/// The head of an endpoint's answer: its status and the headers the transport reads.
struct WebhookAnswerHead: Equatable {
    var status: Int
    var contentLength: Int?
    var isChunked = false
    var retryAfter: String?
    /// Whether the endpoint lets the connection carry another request: an HTTP/1.1 answer without
    /// `Connection: close` (RFC 9112, 9.3), whose length is told one way only: one
    /// `Content-Length`, or `Transfer-Encoding: chunked` alone. An HTTP/1.0 answer closes it, and
    /// so does one whose framing is in doubt (both headers, several lengths, another coding), which
    /// RFC 9112 (6.1, 6.3) says to read to its end and not trust for what follows.
    var keepsConnection = false

    /// Whether the answer has no body whatever its headers say.
    var hasNoBody: Bool { status == 204 || status == 304 || contentLength == 0 }

    /// Parses a head: the status line and the header lines, without the blank line that ends it.
    /// Nil when it is not an HTTP/1 answer.
    init?(_ bytes: ArraySlice<UInt8>) {
        // Split as bytes: in a String, "\r\n" is one Character and no "\n" splits it.
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(decoding: $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0, as: UTF8.self) }
        guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1.") else { return nil }
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[1].utf8.count == 3, let status = Int(parts[1]), (100...999).contains(status) else { return nil }
        self.status = status
        var closes = false
        var lengths = 0
        var codings: [String] = []
        for line in lines.dropFirst() {
            // A line folded onto the one before (obsolete, RFC 9112 5.2) could carry `close` or a
            // length this parser would not see: such an answer is read, and its connection closed.
            if line.first == " " || line.first == "\t" { closes = true }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch line[..<colon].lowercased() {
            case "content-length":
                // Digits only (RFC 9110, 8.6): "+5", "-2" and "5, 5" are no length.
                contentLength = !value.isEmpty && value.utf8.allSatisfy { (0x30...0x39).contains($0) } ? Int(value) : nil
                lengths += 1
            case "transfer-encoding":
                isChunked = value.lowercased().contains("chunked")
                codings += value.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            case "retry-after": retryAfter = value
            case "connection": closes = closes || value.lowercased().split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "close" }
            default: break
            }
        }
        let framed = codings.isEmpty ? lengths <= 1 && (lengths == 0 || contentLength != nil) : codings == ["chunked"] && lengths == 0
        keepsConnection = statusLine.hasPrefix("HTTP/1.1 ") && !closes && framed
    }

    /// The body of a chunked answer from its first raw bytes: the chunks' data, as far as it goes.
    static func dechunk(_ raw: [UInt8]) -> [UInt8] {
        var data: [UInt8] = []
        var index = raw.startIndex
        while let (size, start) = chunkSize(in: raw, at: index), size > 0 {
            // The size is the peer's text: compared with what is left, never added to an index
            // (a size near Int.max would overflow).
            let end = size <= raw.endIndex - start ? start + size : raw.endIndex
            data.append(contentsOf: raw[start..<end])
            guard end + 2 <= raw.endIndex else { break }
            index = end + 2
        }
        return data
    }

    /// Where a chunked body ends, when `raw` holds all of it: the index just past its last chunk,
    /// its trailers and the blank line after them. Nil while it is incomplete or not well formed
    /// (each chunk's data must be followed by CRLF).
    static func chunkedEnd(_ raw: [UInt8]) -> Int? {
        var index = raw.startIndex
        while let (size, start) = chunkSize(in: raw, at: index) {
            if size == 0 {
                var line = start
                while let end = raw[line...].firstIndex(of: UInt8(ascii: "\n")) {
                    if end == line || (end == line + 1 && raw[line] == UInt8(ascii: "\r")) { return end + 1 }
                    line = end + 1
                }
                return nil
            }
            guard size <= raw.endIndex - start - 2 else { return nil }
            let end = start + size
            guard raw[end] == UInt8(ascii: "\r"), raw[end + 1] == UInt8(ascii: "\n") else { return nil }
            index = end + 2
        }
        return nil
    }

    /// The size on the chunk line at `index` (hex digits, then extensions after `;`, ignored) and
    /// where its data starts; nil when the line is not all there or is not a size.
    private static func chunkSize(in raw: [UInt8], at index: Int) -> (size: Int, start: Int)? {
        guard index < raw.endIndex, let lineEnd = raw[index...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        var line = raw[index..<lineEnd]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        let digits = line.prefix { $0 != UInt8(ascii: ";") }.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
        let isHex = { (byte: UInt8) in (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte) }
        guard !digits.isEmpty, digits.allSatisfy(isHex), let size = Int(String(decoding: digits, as: UTF8.self), radix: 16) else { return nil }
        return (size, lineEnd + 1)
    }
}

/// `Retry-After` (RFC 9110): a number of seconds, or an HTTP date (IMF-fixdate, such as
/// `Sun, 06 Nov 1994 08:49:37 GMT`, the form senders must use) from which now is subtracted.
enum RetryAfter {
    /// The delay `value` asks for at `now`; zero for a date already past; nil when it is neither form.
    static func parse(_ value: String, now: Date) -> Duration? {
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
    static func httpDate(_ text: String) -> Double? {
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
