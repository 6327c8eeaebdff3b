/// A coding key for any field name, to list the fields a JSON object actually has.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init(_ key: some CodingKey) { stringValue = key.stringValue }
    init?(intValue: Int) { nil }
}

extension Decoder {
    /// Throws for a field that `Key` does not list, so a typo is an error naming it rather than a
    /// silently ignored setting. (The core has the same rule for its own types.)
    func rejectUnknownFields<Key: CodingKey & CaseIterable>(_: Key.Type) throws {
        let container = try container(keyedBy: AnyKey.self)
        let known = Key.allCases.map(\.stringValue)
        if let unknown = container.allKeys.first(where: { !known.contains($0.stringValue) }) {
            throw DecodingError.dataCorruptedError(
                forKey: unknown, in: container,
                debugDescription: "unknown field \"\(unknown.stringValue)\"; the known fields are \(known.joined(separator: ", "))")
        }
    }
}

extension KeyedDecodingContainer where Key == AnyKey {
    /// The same rule on a container already open, for hot paths: opening a second container costs
    /// as much as decoding the fields.
    func rejectUnknownFields<Known: CodingKey & CaseIterable>(_: Known.Type) throws {
        let known = Known.allCases.map(\.stringValue)
        if let unknown = allKeys.first(where: { !known.contains($0.stringValue) }) {
            throw DecodingError.dataCorruptedError(
                forKey: unknown, in: self,
                debugDescription: "unknown field \"\(unknown.stringValue)\"; the known fields are \(known.joined(separator: ", "))")
        }
    }
}
