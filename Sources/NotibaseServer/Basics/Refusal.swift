/// A request refused for what it asks, in the domain's terms: a store or a service throws it and
/// the API answers it (``APIError/init(_:)``: the kind's status, the code, the message and the
/// field). Below the API nothing names an HTTP status.
struct Refusal: Error, Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// The caller may not do this (HTTP 403).
        case forbidden
        /// It contradicts what is stored (HTTP 409).
        case conflict
    }

    let kind: Kind
    /// A stable code the caller can branch on (`identity_required`).
    let code: String
    /// What to do, for a person.
    let message: String
    /// The request field it is about.
    let field: String?
}
