/// A request refused for what it asks, in the domain's terms: a store, a service or a check in
/// Auth/ throws it and the API answers it (``APIError/init(_:)``: the kind's status, the code, the
/// message, the field, and a 429's limit and wait). Below the API nothing names an HTTP status.
package struct Refusal: Error, Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// A value is not one the request may give (HTTP 400).
        case invalid
        /// No key, or one that is not valid (HTTP 401).
        case unauthorized
        /// The caller may not do this (HTTP 403).
        case forbidden
        /// Nothing the caller can see has this ID (HTTP 404).
        case notFound
        /// It contradicts what is stored (HTTP 409).
        case conflict
        /// It is larger than the server keeps (HTTP 413).
        case tooLarge
        /// Well formed, and still not doable as asked (HTTP 422).
        case unprocessable
        /// Over a limit: which one, when it is not the key's rate, and the seconds to wait, when
        /// waiting helps (HTTP 429, `Retry-After`).
        case tooMany(limit: String? = nil, retryAfter: Int? = nil)
    }

    package let kind: Kind
    /// A stable code the caller can branch on (`identity_required`).
    package let code: String
    /// What to do, for a person.
    package let message: String
    /// The request field it is about.
    package let field: String?

    /// `field` has a value it may not have: `invalid_field`, the message starting with the field.
    package static func invalid(_ field: String, _ message: String) -> Refusal {
        Refusal(kind: .invalid, code: "invalid_field", message: "\(field) \(message)", field: field)
    }

    /// No `what` with the ID asked for is the caller's.
    package static func notFound(_ what: String) -> Refusal {
        Refusal(kind: .notFound, code: "not_found", message: "no \(what) with this ID exists for this key", field: nil)
    }

    package init(kind: Kind, code: String, message: String, field: String?) {
        self.kind = kind
        self.code = code
        self.message = message
        self.field = field
    }
}
