/// Writes one JSON object straight into bytes, for the hottest answers (a registered device).
/// The caller gives the fields in sorted order; strings are escaped the way `JSONEncoder` escapes
/// them with `.withoutEscapingSlashes`, so the bytes are the ones the encoder would write.
struct JSONObjectWriter {
    private(set) var bytes: [UInt8]
    private var empty = true

    init(capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    /// The finished object.
    consuming func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// A string field; nothing when `value` is nil (the encoder leaves nil out).
    mutating func field(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        Self.appendString(value, to: &bytes)
    }

    mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        bytes.append(contentsOf: value ? Self.true : Self.false)
    }

    /// A time (milliseconds since 1970) as RFC 3339; nothing when nil.
    mutating func field(_ name: StaticString, time: Int?) {
        guard let time else { return }
        key(name)
        bytes.append(UInt8(ascii: "\""))
        time.appendTimestamp(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func field(_ name: StaticString, _ values: [String]) {
        key(name)
        Self.appendArray(values, to: &bytes)
    }

    private mutating func key(_ name: StaticString) {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    private static let `true` = Array("true".utf8)
    private static let `false` = Array("false".utf8)
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `values` as a JSON array of strings.
    static func appendArray(_ values: [String], to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            appendString(value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// `string` as a quoted JSON string: `"` and `\` escaped, control characters as `\b`, `\t`,
    /// `\n`, `\f`, `\r` or `\u00XX`; everything else (`/`, non-ASCII) as it is.
    static func appendString(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x0a: bytes.append(UInt8(ascii: "n"))
                case 0x0c: bytes.append(UInt8(ascii: "f"))
                case 0x0d: bytes.append(UInt8(ascii: "r"))
                default:
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xf)]])
                }
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
