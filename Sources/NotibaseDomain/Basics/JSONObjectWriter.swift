import NotibaseCore

/// Writes one JSON object straight into bytes, for the hottest answers (a registered device).
/// The caller gives the fields in sorted order; strings are escaped the way `JSONEncoder` escapes
/// them with `.withoutEscapingSlashes`, so the bytes are the ones the encoder would write.
package struct JSONObjectWriter {
    package private(set) var bytes: [UInt8]
    private var empty = true

    package init(capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    /// The finished object.
    package consuming func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// A string field; nothing when `value` is nil (the encoder leaves nil out).
    package mutating func field(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        JSONWriter.appendString(value, to: &bytes)
    }

    package mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        bytes.append(contentsOf: value ? Self.true : Self.false)
    }

    /// A time (milliseconds since 1970) as RFC 3339; nothing when nil.
    package mutating func field(_ name: StaticString, time: Int?) {
        guard let time else { return }
        key(name)
        bytes.append(UInt8(ascii: "\""))
        Timestamp.append(milliseconds: time, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    package mutating func field(_ name: StaticString, _ values: [String]) {
        key(name)
        Self.appendArray(values, to: &bytes)
    }

    /// A whole number; nothing when nil.
    package mutating func field(_ name: StaticString, _ value: Int?) {
        guard let value else { return }
        key(name)
        bytes.append(contentsOf: String(value).utf8)
    }

    package mutating func field(_ name: StaticString, _ value: Bool?) {
        guard let value else { return }
        field(name, value)
    }

    /// A value already written as JSON (by this writer or with `JSON.encoder()`); nothing when nil.
    package mutating func field(_ name: StaticString, json: [UInt8]?) {
        guard let json else { return }
        key(name)
        bytes.append(contentsOf: json)
    }

    /// An object of whole numbers, its keys sorted as the encoder sorts them.
    package mutating func field(_ name: StaticString, _ values: [String: Int]) {
        key(name)
        Self.appendObject(values, to: &bytes) { value, bytes in bytes.append(contentsOf: String(value).utf8) }
    }

    /// An object of objects of whole numbers (counts by platform and state), keys sorted.
    package mutating func field(_ name: StaticString, _ values: [String: [String: Int]]) {
        key(name)
        Self.appendObject(values, to: &bytes) { inner, bytes in
            Self.appendObject(inner, to: &bytes) { value, bytes in bytes.append(contentsOf: String(value).utf8) }
        }
    }

    private static func appendObject<Value>(_ values: [String: Value], to bytes: inout [UInt8], _ write: (Value, inout [UInt8]) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        for (index, (key, value)) in values.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            write(value, &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
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
    package static func appendArray(_ values: [String], to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }
}
