/// A coding key for any field name, to list the fields a JSON object actually has.
package struct AnyKey: CodingKey {
    package var stringValue: String
    package var intValue: Int?

    package init(stringValue: String) {
        self.stringValue = stringValue
    }

    package init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension Decoder {
    /// Throws for the first field of the current JSON object that `Key` does not list, so that a
    /// typo such as `"titel"` is an error that names the field instead of a setting dropped
    /// silently. The core's types and the server's request bodies share this rule.
    package func rejectUnknownFields<Key: CodingKey & CaseIterable>(_: Key.Type) throws {
        let container = try container(keyedBy: AnyKey.self)
        // Looked up by the key's own initializer: the list of names is built only for the error
        // (built for every object, it was half of a message body's decoding).
        if let unknown = container.allKeys.first(where: { Key(stringValue: $0.stringValue)?.stringValue != $0.stringValue }) {
            let known = Key.allCases.map(\.stringValue)
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: container.codingPath + [unknown],
                debugDescription: DecodingProblem.unknownField(unknown.stringValue, at: "", known: known).message,
                underlyingError: UnknownField()))
        }
    }
}

/// Marks the decoding error `rejectUnknownFields` throws, so `DecodingProblem` knows its kind.
struct UnknownField: Error {}
