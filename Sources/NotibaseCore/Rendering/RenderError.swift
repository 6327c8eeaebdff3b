/// Why a message could not be rendered for a provider.
public struct RenderError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Kind: Hashable {
        case invalid(ValidationError)
        case tooLarge(platform: Platform, size: Int, limit: Int, largest: [FieldSize])
    }

    private let kind: Kind

    /// The size a field takes in the payload.
    public struct FieldSize: Sendable, Hashable {
        /// The message field (`data.orders`, `buttons`, `title`, …).
        public var field: String
        /// Its bytes in the payload.
        public var bytes: Int
    }

    static func invalid(_ error: ValidationError) -> RenderError {
        RenderError(kind: .invalid(error))
    }

    static func tooLarge(platform: Platform, size: Int, limit: Int, fields: [FieldSize]) -> RenderError {
        let largest = fields.filter { $0.bytes > 0 }.sorted { $0.bytes > $1.bytes }.prefix(3)
        return RenderError(kind: .tooLarge(platform: platform, size: size, limit: limit, largest: Array(largest)))
    }

    /// The validation errors, when the message itself is invalid.
    public var validationError: ValidationError? {
        if case .invalid(let error) = kind { return error }
        return nil
    }

    /// How many bytes too many, when the payload is over the provider's limit even with the body
    /// shortened.
    public var bytesOverLimit: Int? {
        if case .tooLarge(_, let size, let limit, _) = kind { return size - limit }
        return nil
    }

    /// The largest fields, when the payload is over the limit.
    public var largestFields: [FieldSize] {
        if case .tooLarge(_, _, _, let largest) = kind { return largest }
        return []
    }

    /// A stable code: `invalid_message` or `payload_too_large`.
    public var code: String {
        switch kind {
        case .invalid: "invalid_message"
        case .tooLarge: "payload_too_large"
        }
    }

    public var description: String {
        switch kind {
        case .invalid(let error):
            return error.description
        case .tooLarge(let platform, let size, let limit, let largest):
            let fields = largest.map { "\($0.field) (\($0.bytes) bytes)" }.joined(separator: ", ")
            return "the \(platform) payload is \(size) bytes, \(size - limit) over the \(limit)-byte limit even with the body "
                + "shortened; make the largest fields smaller: \(fields)"
        }
    }
}
