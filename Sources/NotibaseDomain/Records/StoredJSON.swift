import Foundation

/// The JSON form of what a store keeps as text (a message's content and audience): keys sorted, so
/// equal values are stored alike on every backend.
package enum StoredJSON {
    package static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// The value, or nil when the stored text is not one (a damaged database).
    package static func decode<Value: Decodable>(_ type: Value.Type, _ text: String) -> Value? {
        try? JSONDecoder().decode(type, from: Data(text.utf8))
    }
}
