#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ContentStateSchema {
    /// The schema of `type`, found by decoding it once from a decoder that answers every request
    /// with a placeholder and notes what was asked: each key, the JSON type its value was decoded
    /// as, and whether it was decoded with `decodeIfPresent` (optional). Nested types count as
    /// objects and collections as arrays or objects. An enum decoded from a string or number must
    /// be `CaseIterable` (its first case stands in); a type whose `init(from:)` refuses every
    /// placeholder throws `SchemaRecordingError`.
    public init<State: Decodable>(recording type: State.Type) throws {
        let recorder = SchemaRecorder()
        let decoder = RecordingDecoder(recorder: recorder, codingPath: [])
        _ = try State(from: decoder)
        guard decoder.asked.kind == .object else {
            throw SchemaRecordingError(type: String(describing: State.self), reason: "it does not decode from a JSON object")
        }
        self.init(fields: recorder.fields)
    }
}

/// A type's schema could not be recorded (see ``ContentStateSchema/init(recording:)``).
public struct SchemaRecordingError: Error, CustomStringConvertible {
    /// The type.
    public let type: String
    /// Why.
    public let reason: String

    public var description: String {
        "the content state schema of \(type) could not be derived: \(reason); no schema is sent (the server then cannot explain a content state the app would drop)"
    }
}

/// The fields noted so far (top-level keys only).
final class SchemaRecorder {
    private(set) var fields: [ContentStateSchema.Field] = []

    func note(_ key: String, _ type: ContentStateSchema.JSONType, optional: Bool) {
        guard !fields.contains(where: { $0.key == key }) else { return }
        fields.append(ContentStateSchema.Field(key: key, type: type, optional: optional))
    }
}

/// What a value's decoder was asked for: its JSON type.
final class AskedKind {
    var kind: ContentStateSchema.JSONType?
}
