import Foundation
package import NotibaseCore
package import NotibaseDomain
package import NotibaseHTTP
import NotibaseWebhooks
import NotibaseServices

/// An error answer: a status, a stable code, a message that says what to do, and the field it is
/// about. Every error the API gives has this JSON shape:
/// `{"error": {"code": "...", "message": "...", "field": "..."}}`.
package struct APIError: Error, Sendable {
    package var status: Int
    package var code: String
    package var message: String
    package var field: String?
    package var retryAfter: Int?
    /// The limit a 429 is about, when it is not the key's rate (`messagesPerMinute`).
    package var limit: String?
    /// Every problem, when validation found several.
    package var issues: [ValidationIssue] = []

    package init(status: Int, code: String, message: String, field: String?, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.retryAfter = retryAfter
    }

    /// 400 for JSON that did not decode: the field path and what was wrong.
    package static func invalidJSON(_ error: any Error) -> APIError {
        invalid(DecodingProblem(error))
    }

    /// 400 for JSON that did not decode, as ``invalidJSON(_:)`` answers it.
    package static func invalid(_ problem: DecodingProblem) -> APIError {
        let code = switch problem.kind {
        case .malformedJSON: "malformed_json"
        case .unknownField: "unknown_field"
        case .missingField: "missing_field"
        case .invalidField: "invalid_field"
        }
        let message = problem.field.isEmpty || problem.kind == .unknownField ? problem.message : "\(problem.field) \(problem.message)"
        return APIError(status: 400, code: code, message: message, field: problem.field.isEmpty ? nil : problem.field)
    }

    package static func invalid(_ field: String, _ message: String) -> APIError {
        APIError(Refusal.invalid(field, message))
    }

    /// 400 for a field that appears twice in one object (`JSONDecoder` would keep one silently).
    package static func duplicate(_ field: String) -> APIError {
        APIError(status: 400, code: "duplicate_field", message: "\(field) appears more than once; send each field once", field: field)
    }

    package static func notFound(_ what: String) -> APIError {
        APIError(Refusal.notFound(what))
    }

    /// The response, tagged with the request ID.
    package var response: HTTPResponse {
        var body = ErrorBody.Detail(code: code, message: message, field: field, limit: limit)
        if !issues.isEmpty { body.issues = issues }
        var response = JSON.response(status: status, ErrorBody(error: body))
        if let retryAfter { response.headers.append(("Retry-After", String(retryAfter))) }
        return response
    }
}

package struct ErrorBody: Encodable {
    package struct Detail: Encodable {
        package var code: String
        package var message: String
        package var field: String?
        package var limit: String?
        package var issues: [ValidationIssue]?
    }
    package var error: Detail
}

extension APIError {
    /// The answer to what the domain refused: its kind's status, with its code, message and field,
    /// and a 429's limit and `Retry-After`.
    package init(_ refusal: Refusal) {
        let status = switch refusal.kind {
        case .invalid: 400
        case .unauthorized: 401
        case .forbidden: 403
        case .notFound: 404
        case .conflict: 409
        case .tooLarge: 413
        case .unprocessable: 422
        case .tooMany: 429
        }
        self.init(status: status, code: refusal.code, message: refusal.message, field: refusal.field)
        if case .tooMany(let limit, let retryAfter) = refusal.kind {
            self.limit = limit
            self.retryAfter = retryAfter
        }
    }
}
