/// PostgreSQL array literals, passed as one text parameter and cast in the statement
/// (`$1::bigint[]`, `$1::text[]`): a batch's numbers or texts in one value, whatever their count.
package enum PostgresArray {
    /// `{1,2,3}`.
    package static func bigints(_ values: some Sequence<Int>) -> String {
        "{" + values.map(String.init).joined(separator: ",") + "}"
    }

    /// A literal of texts written an element at a time: each quoted, its quotes and backslashes
    /// escaped, so a value holds anything (commas, braces, quotes) and stays one element.
    package struct Texts {
        private var bytes: [UInt8] = [UInt8(ascii: "{")]
        private var empty = true

        package mutating func append(_ value: some Sequence<UInt8>) {
            if !empty { bytes.append(UInt8(ascii: ",")) }
            empty = false
            bytes.append(UInt8(ascii: "\""))
            for byte in value {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
                bytes.append(byte)
            }
            bytes.append(UInt8(ascii: "\""))
        }

        package var literal: String { String(decoding: bytes + [UInt8(ascii: "}")], as: UTF8.self) }
    }
}
