/// A JSON document that could not be decoded, described for a person: which field, and what is
/// wrong with it. Built from Foundation's `DecodingError`, whose own description is hard to read.
public struct DecodingProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path of the field, such as `buttons[1].text`; empty for the document itself.
    public var field: String
    /// What is wrong and what is expected.
    public var message: String
    /// What kind of problem it is, for a program that answers it (the API's error codes).
    public var kind: Kind

    /// The kinds of problem a JSON document can have.
    public enum Kind: String, Sendable, Hashable {
        /// The document is not JSON at all.
        case malformedJSON
        /// An object has a field its type does not know.
        case unknownField
        /// A required field is absent.
        case missingField
        /// A field (or the document) has the wrong type or value.
        case invalidField
    }

    /// A problem at `field`.
    public init(field: String, message: String, kind: Kind = .invalidField) {
        self.field = field
        self.message = message
        self.kind = kind
    }

    /// A document that is not JSON at all.
    package static let malformedJSON = DecodingProblem(
        field: "", message: "the document is not valid JSON (look for a missing quote, comma or bracket)", kind: .malformedJSON)

    /// A field named `name`, at `field`, that an object with the `known` fields does not have.
    package static func unknownField(_ name: String, at field: String, known: [String]) -> DecodingProblem {
        DecodingProblem(field: field, message: "unknown field \"\(name)\"; the known fields are \(known.joined(separator: ", "))", kind: .unknownField)
    }

    /// Describes any error thrown while decoding JSON.
    public init(_ error: any Error) {
        guard let error = error as? DecodingError else {
            self.init(field: "", message: "\(error)")
            return
        }
        switch error {
        case .typeMismatch(let type, let context):
            self.init(field: Self.path(context.codingPath), message: "expected \(Self.describe(type))")
        case .valueNotFound(let type, let context):
            self.init(field: Self.path(context.codingPath), message: "expected \(Self.describe(type)), found null")
        case .keyNotFound(let key, let context):
            self.init(field: Self.path(context.codingPath + [key]), message: "is required", kind: .missingField)
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty, context.debugDescription.contains("not valid JSON") {
                self = .malformedJSON
            } else if context.underlyingError is UnknownField {
                self.init(field: Self.path(context.codingPath), message: context.debugDescription, kind: .unknownField)
            } else {
                self.init(field: Self.path(context.codingPath), message: context.debugDescription,
                          kind: context.codingPath.isEmpty && context.debugDescription.contains("JSON") ? .malformedJSON : .invalidField)
            }
        @unknown default:
            self.init(field: "", message: "\(error)")
        }
    }

    public var description: String {
        field.isEmpty ? message : "\(field): \(message)"
    }

    /// `buttons[1].text` from a coding path.
    static func path(_ codingPath: [any CodingKey]) -> String {
        var path = ""
        for key in codingPath {
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                if !path.isEmpty { path += "." }
                path += key.stringValue
            }
        }
        return path
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type, is UInt.Type: "a whole number"
        case is Double.Type, is Float.Type: "a number"
        case is Bool.Type: "true or false"
        case is [Any].Type: "an array"
        default:
            "\(type)".hasPrefix("Array") ? "an array" : ("\(type)".hasPrefix("Dictionary") ? "an object" : "a \(type)")
        }
    }
}
