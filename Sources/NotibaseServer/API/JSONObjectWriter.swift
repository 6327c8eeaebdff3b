import NotibaseCore

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
        JSONWriter.appendString(value, to: &bytes)
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
        Timestamp.append(milliseconds: time, to: &bytes)
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

    /// `values` as a JSON array of strings.
    static func appendArray(_ values: [String], to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }
}
