package import Foundation
import NotibaseCore

/// JSON as the server writes it: sorted keys, and lists written by hand on the send's path.
package enum JSON {
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// JSON text with sorted keys.
    package static func text(_ value: some Encodable) -> String {
        (try? String(decoding: encoder().encode(value), as: UTF8.self)) ?? "null"
    }

    /// A list of strings as JSON text, written by hand: the text the encoder writes (identifiers
    /// and audiences are bound to statements this way on the send's path).
    package static func text(_ values: [String]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.reduce(2) { $0 + $1.utf8.count + 3 })
        JSONObjectWriter.appendArray(values, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A list of whole numbers as JSON text, written by hand (row numbers bound to statements).
    package static func text(_ values: [Int]) -> String {
        "[" + values.map(String.init).joined(separator: ",") + "]"
    }

    /// A string as JSON text, written by hand.
    package static func text(_ value: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count + 2)
        JSONWriter.appendString(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
