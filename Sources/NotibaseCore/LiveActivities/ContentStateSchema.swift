/// What an app's Live Activity `ContentState` decodes: its top-level keys, the JSON type of each and
/// whether it may be absent. The iOS SDK derives it from the type and sends it with the
/// push-to-start token; the server uses it to explain a content state the app would drop (iOS
/// drops an update whose content state does not decode, without a word).
public struct ContentStateSchema: Codable, Sendable, Hashable {
    /// One key of the content state.
    public struct Field: Codable, Sendable, Hashable {
        /// The JSON key.
        public var key: String
        /// The JSON type its value must have.
        public var type: JSONType
        /// Whether the key may be absent (or null).
        public var optional: Bool

        /// A field.
        public init(key: String, type: JSONType, optional: Bool = false) {
            self.key = key
            self.type = type
            self.optional = optional
        }
    }

    /// A JSON type, as Swift's `JSONDecoder` tells them apart.
    public enum JSONType: String, Codable, Sendable, Hashable, CaseIterable {
        /// A string (also a `Date` or `URL` decoded from text).
        case string
        /// A number without a fraction (Swift's integer types).
        case integer
        /// Any number (`Double`, `Float`, and `Date` with the default strategy).
        case number
        /// `true` or `false`.
        case boolean
        /// A JSON object (a nested `Codable` type or a dictionary).
        case object
        /// A JSON array.
        case array
    }

    /// The keys, in the order the type decodes them.
    public var fields: [Field]

    /// A schema of `fields`.
    public init(fields: [Field]) {
        self.fields = fields
    }

    /// What would make the app's `ContentState` fail to decode `state`, one sentence each (empty
    /// when it decodes): a required key missing or null, a value of the wrong JSON type. Keys the
    /// type does not know are ignored by Swift's `Codable`, and so here.
    public func problems(in state: [String: JSONValue]) -> [String] {
        fields.compactMap { field in
            guard let value = state[field.key], value != .null else {
                return field.optional ? nil : "content state lacks \"\(field.key)\" (\(field.type.rawValue)), which the app requires"
            }
            guard !field.type.accepts(value) else { return nil }
            return "content state \"\(field.key)\" is \(value.jsonTypeName), the app decodes \(field.type.rawValue)"
        }
    }
}

extension ContentStateSchema.JSONType {
    /// Whether `value` (not null) decodes as this type.
    func accepts(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (.string, .string), (.boolean, .bool), (.object, .object), (.array, .array): true
        case (.integer, .integer), (.number, .integer), (.number, .double): true
        // JSONDecoder decodes 3.0 into an Int.
        case (.integer, .double(let number)): number.rounded() == number && abs(number) < 9.2e18
        default: false
        }
    }
}

extension JSONValue {
    /// The JSON type of the value, as the schema names types (`null` for null).
    var jsonTypeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer: "integer"
        case .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
