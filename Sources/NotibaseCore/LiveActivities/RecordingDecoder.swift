#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `Decoder` that answers with placeholders and notes what was asked (see
/// ``ContentStateSchema/init(recording:)``). `recorder` is set for the top level only: the keys of
/// nested values are not part of the schema.
struct RecordingDecoder: Decoder {
    let recorder: SchemaRecorder?
    let asked = AskedKind()
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        asked.kind = .object
        return KeyedDecodingContainer(RecordingKeyedContainer<Key>(recorder: recorder, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        asked.kind = .array
        return EmptyUnkeyedContainer(codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        RecordingSingleValue(asked: asked, codingPath: codingPath)
    }

    /// A placeholder of `type` and the JSON type it decodes from.
    static func placeholder<T: Decodable>(_ type: T.Type, at path: [any CodingKey]) throws -> (T, ContentStateSchema.JSONType) {
        // JSONDecoder's own special cases: a Date (default strategy) is a number, a URL a string.
        if let date = Date(timeIntervalSinceReferenceDate: 0) as? T { return (date, .number) }
        if T.self == URL.self, let url = URL(string: "https://example.com") as? T { return (url, .string) }
        let nested = RecordingDecoder(recorder: nil, codingPath: path)
        do {
            let value = try T(from: nested)
            return (value, nested.asked.kind ?? .object)
        } catch {
            // An enum that refused the placeholder: its first case stands in.
            if let kind = nested.asked.kind, let cases = T.self as? any CaseIterable.Type, let first = firstCase(cases) as? T {
                return (first, kind)
            }
            throw error
        }
    }

    private static func firstCase<C: CaseIterable>(_ type: C.Type) -> Any? {
        type.allCases.first
    }
}

/// Every key is there; each decode notes the key with the JSON type of the value.
struct RecordingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let recorder: SchemaRecorder?
    var codingPath: [any CodingKey]
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try value(type, key, optional: false)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        _ = try value(type, key, optional: true)
        return nil
    }

    private func value<T: Decodable>(_ type: T.Type, _ key: Key, optional: Bool) throws -> T {
        let (value, kind) = try RecordingDecoder.placeholder(type, at: codingPath + [key])
        recorder?.note(key.stringValue, kind, optional: optional)
        return value
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        recorder?.note(key.stringValue, .object, optional: false)
        return KeyedDecodingContainer(RecordingKeyedContainer<NestedKey>(recorder: nil, codingPath: codingPath + [key]))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        recorder?.note(key.stringValue, .array, optional: false)
        return EmptyUnkeyedContainer(codingPath: codingPath + [key])
    }

    func superDecoder() throws -> any Decoder { RecordingDecoder(recorder: nil, codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { RecordingDecoder(recorder: nil, codingPath: codingPath + [key]) }

    // The concrete overloads: without them the protocol's defaults would hide `optional`.
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(type, key, optional: false) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(type, key, optional: false) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(type, key, optional: false) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value(type, key, optional: false) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(type, key, optional: false) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value(type, key, optional: false) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(type, key, optional: false) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value(type, key, optional: false) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(type, key, optional: false) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value(type, key, optional: false) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value(type, key, optional: false) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value(type, key, optional: false) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value(type, key, optional: false) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value(type, key, optional: false) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try decodeIfPresent(Box<Bool>.self, forKey: key)?.value }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try decodeIfPresent(Box<String>.self, forKey: key)?.value }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try decodeIfPresent(Box<Double>.self, forKey: key)?.value }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try decodeIfPresent(Box<Float>.self, forKey: key)?.value }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decodeIfPresent(Box<Int>.self, forKey: key)?.value }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try decodeIfPresent(Box<Int8>.self, forKey: key)?.value }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try decodeIfPresent(Box<Int16>.self, forKey: key)?.value }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try decodeIfPresent(Box<Int32>.self, forKey: key)?.value }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try decodeIfPresent(Box<Int64>.self, forKey: key)?.value }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try decodeIfPresent(Box<UInt>.self, forKey: key)?.value }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try decodeIfPresent(Box<UInt8>.self, forKey: key)?.value }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try decodeIfPresent(Box<UInt16>.self, forKey: key)?.value }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try decodeIfPresent(Box<UInt32>.self, forKey: key)?.value }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try decodeIfPresent(Box<UInt64>.self, forKey: key)?.value }
}

/// A primitive decoded through the generic path (so its single value notes its JSON type).
private struct Box<Value: Decodable>: Decodable {
    let value: Value
    init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Value.self) }
}

/// A single value: notes the JSON type asked for and answers a placeholder of it.
struct RecordingSingleValue: SingleValueDecodingContainer {
    let asked: AskedKind
    var codingPath: [any CodingKey]

    func decodeNil() -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try placeholder(type) }
    func decode(_ type: Bool.Type) throws -> Bool { try placeholder(type) }
    func decode(_ type: String.Type) throws -> String { try placeholder(type) }
    func decode(_ type: Double.Type) throws -> Double { try placeholder(type) }
    func decode(_ type: Float.Type) throws -> Float { try placeholder(type) }
    func decode(_ type: Int.Type) throws -> Int { try placeholder(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try placeholder(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try placeholder(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try placeholder(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try placeholder(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try placeholder(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try placeholder(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try placeholder(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try placeholder(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try placeholder(type) }

    private func placeholder<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is Bool.Type:
            asked.kind = .boolean
            return false as! T
        case is String.Type:
            asked.kind = .string
            return "" as! T
        case is Double.Type, is Float.Type:
            asked.kind = .number
            return (T.self == Double.self ? Double(0) as Any : Float(0) as Any) as! T
        default:
            if let integer = type as? any FixedWidthInteger.Type {
                asked.kind = .integer
                return integer.zero as! T
            }
            let (value, kind) = try RecordingDecoder.placeholder(type, at: codingPath)
            asked.kind = kind
            return value
        }
    }
}

/// An array with nothing in it.
struct EmptyUnkeyedContainer: UnkeyedDecodingContainer {
    var codingPath: [any CodingKey]
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        throw DecodingError.valueNotFound(type, DecodingError.Context(codingPath: codingPath, debugDescription: "the placeholder array is empty"))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(RecordingKeyedContainer<NestedKey>(recorder: nil, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { self }
    mutating func superDecoder() throws -> any Decoder { RecordingDecoder(recorder: nil, codingPath: codingPath) }
}
