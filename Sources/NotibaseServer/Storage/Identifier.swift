/// Identifiers for apps, devices, messages and deliveries: lowercase UUIDs (version 7), whose
/// leading timestamp keeps index inserts in order. APNs echoes a delivery's as `apns-id`.
enum Identifier {
    /// A new identifier for time `milliseconds` (since 1970).
    static func make(milliseconds: Int) -> String {
        make(milliseconds: milliseconds, random: Crypto.randomBytes(10)[...])
    }

    /// Identifiers for many rows at once: one call to the random generator (about a microsecond)
    /// for all of them.
    static func make(count: Int, milliseconds: Int) -> [String] {
        make(times: Array(repeating: milliseconds, count: count))
    }

    /// Identifiers for many rows at once, each for its own time.
    static func make(times: [Int]) -> [String] {
        let random = Crypto.randomBytes(times.count * 10)
        return times.indices.map { make(milliseconds: times[$0], random: random[($0 * 10)..<($0 * 10 + 10)]) }
    }

    /// A UUIDv7 from a 48-bit timestamp and 10 random bytes (74 bits are used).
    private static func make(milliseconds: Int, random: ArraySlice<UInt8>) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        let time = UInt64(max(0, milliseconds))
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: time >> (40 - 8 * index)) }
        for (offset, byte) in random.enumerated() { bytes[6 + offset] = byte }
        bytes[6] = 0x70 | (bytes[6] & 0x0f)
        bytes[8] = 0x80 | (bytes[8] & 0x3f)
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Whether `text` has the shape of an identifier (a lowercase UUID).
    static func isWellFormed(_ text: String) -> Bool {
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
