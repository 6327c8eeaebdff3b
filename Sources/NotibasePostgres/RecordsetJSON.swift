import NotibaseCore

/// Rows for `jsonb_to_recordset`, written by hand: an array of objects whose keys are the
/// recordset's column names. Foundation's `JSONEncoder` made these for every delivery a send fans
/// out and records (two objects a delivery), and took about 0.6 s of a 300,000-device send's CPU on
/// PostgreSQL (docs/benchmarks/2026-12-07-lab-notes.md). As `JSONEncoder` did, a key whose value is nil is
/// left out; the recordset reads it as NULL.
package struct RecordsetJSON {
    private var bytes: [UInt8] = [UInt8(ascii: "[")]
    private var fields = 0

    /// Room for `rows` objects of about `bytesPerRow` bytes.
    package init(rows: Int = 0, bytesPerRow: Int = 64) {
        bytes.reserveCapacity(2 + rows * bytesPerRow)
    }

    /// Starts the next object; its fields follow, then ``endObject()``.
    package mutating func beginObject() {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "{"))
        fields = 0
    }

    package mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
    }

    /// A text field (escaped as JSON text), left out when nil. `key` is a column's name: letters.
    package mutating func field(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        self.key(key)
        JSONWriter.appendString(value, to: &bytes)
    }

    /// A number field, left out when nil.
    package mutating func field(_ key: StaticString, _ value: Int?) {
        guard let value else { return }
        self.key(key)
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A boolean field.
    package mutating func field(_ key: StaticString, _ value: Bool) {
        self.key(key)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// A field holding an array of texts (a `jsonb` column), left out when nil.
    package mutating func field(_ key: StaticString, _ values: [String]?) {
        guard let values else { return }
        self.key(key)
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    private mutating func key(_ key: StaticString) {
        if fields > 0 { bytes.append(UInt8(ascii: ",")) }
        fields += 1
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: "\":".utf8)
    }

    /// The array's text.
    package var text: String {
        var bytes = bytes
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `rows` written by `write`, one object each.
    package static func of<Row>(_ rows: some Collection<Row>, bytesPerRow: Int = 64, _ write: (Row, inout RecordsetJSON) -> Void) -> String {
        var json = RecordsetJSON(rows: rows.count, bytesPerRow: bytesPerRow)
        for row in rows {
            json.beginObject()
            write(row, &json)
            json.endObject()
        }
        return json.text
    }
}
