package import NotibaseSenders

/// Identifiers for apps, devices, messages and deliveries: lowercase UUIDs (version 7), whose
/// leading timestamp keeps index inserts in order. APNs echoes a delivery's as `apns-id`.
package enum Identifier {
    /// A new identifier for time `milliseconds` (since 1970).
    package static func make(milliseconds: Int) throws(OpenSSLFailure) -> String {
        make(milliseconds: milliseconds, random: try Crypto.randomBytes(10)[...])
    }

    /// Identifiers for many rows at once: one call to the random generator (about a microsecond)
    /// for all of them.
    package static func make(count: Int, milliseconds: Int) throws(OpenSSLFailure) -> [String] {
        try make(times: Array(repeating: milliseconds, count: count))
    }

    /// Identifiers for many rows at once, each for its own time.
    package static func make(times: [Int]) throws(OpenSSLFailure) -> [String] {
        let random = try Crypto.randomBytes(times.count * 10)
        return times.indices.map { make(milliseconds: times[$0], random: random[($0 * 10)..<($0 * 10 + 10)]) }
    }

    /// A UUIDv7 from a 48-bit timestamp and 10 random bytes (74 bits are used).
    private static func make(milliseconds: Int, random: ArraySlice<UInt8>) -> String {
        let time = UInt64(max(0, milliseconds))
        return String(unsafeUninitializedCapacity: 36) { text in
            var count = 0
            for index in 0..<16 {
                var byte: UInt8
                switch index {
                case 0..<6: byte = UInt8(truncatingIfNeeded: time >> (40 - 8 * index))
                case 6: byte = 0x70 | (random[random.startIndex] & 0x0f)
                case 8: byte = 0x80 | (random[random.startIndex + 2] & 0x3f)
                default: byte = random[random.startIndex + index - 6]
                }
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    text[count] = UInt8(ascii: "-")
                    count += 1
                }
                text[count] = hexDigits[Int(byte >> 4)]
                text[count + 1] = hexDigits[Int(byte & 15)]
                count += 2
            }
            return count
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Whether `text` has the shape of an identifier (a lowercase UUID).
    package static func isWellFormed(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                if byte != UInt8(ascii: "-") { return false }
            } else if !((0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)) {
                return false
            }
        }
        return true
    }
}
