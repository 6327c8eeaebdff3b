/// A coding key for any string, used to look at the keys a JSON object actually has.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension Decoder {
    /// Throws for the first key of the current JSON object that is not in `allowed`, so that a
    /// typo such as `"titel"` is an error that names the field instead of being dropped silently.
    func rejectUnknownKeys<Key: CodingKey & CaseIterable>(_: Key.Type) throws {
        let container = try container(keyedBy: AnyCodingKey.self)
        let allowed = Set(Key.allCases.map(\.stringValue))
        for key in container.allKeys where !allowed.contains(key.stringValue) {
            throw DecodingError.dataCorruptedError(
                forKey: key,
                in: container,
                debugDescription: "unknown field \"\(key.stringValue)\"; the known fields are "
                    + Key.allCases.map(\.stringValue).joined(separator: ", ")
            )
        }
    }
}
