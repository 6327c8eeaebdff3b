import Foundation
import NotibaseCore

/// An error answer: a status, a stable code, a message that says what to do, and the field it is
/// about. Every error the API gives has this JSON shape:
/// `{"error": {"code": "...", "message": "...", "field": "..."}}`.
struct APIError: Error, Sendable {
    var status: Int
    var code: String
    var message: String
    var field: String?
    var retryAfter: Int?
    /// The limit a 429 is about, when it is not the key's rate (`messagesPerMinute`).
    var limit: String?
    /// Every problem, when validation found several.
    var issues: [ValidationIssue] = []

    init(status: Int, code: String, message: String, field: String?, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.retryAfter = retryAfter
    }

    /// 400 for JSON that did not decode: the field path and what was wrong.
    static func invalidJSON(_ error: any Error) -> APIError {
        invalid(DecodingProblem(error))
    }

    /// 400 for JSON that did not decode, as ``invalidJSON(_:)`` answers it.
    static func invalid(_ problem: DecodingProblem) -> APIError {
        let code = switch problem.kind {
        case .malformedJSON: "malformed_json"
        case .unknownField: "unknown_field"
        case .missingField: "missing_field"
        case .invalidField: "invalid_field"
        }
        let message = problem.field.isEmpty || problem.kind == .unknownField ? problem.message : "\(problem.field) \(problem.message)"
        return APIError(status: 400, code: code, message: message, field: problem.field.isEmpty ? nil : problem.field)
    }

    static func invalid(_ field: String, _ message: String) -> APIError {
        APIError(status: 400, code: "invalid_field", message: "\(field) \(message)", field: field)
    }

    /// 400 for a field that appears twice in one object (`JSONDecoder` would keep one silently).
    static func duplicate(_ field: String) -> APIError {
        APIError(status: 400, code: "duplicate_field", message: "\(field) appears more than once; send each field once", field: field)
    }

    static func notFound(_ what: String) -> APIError {
        APIError(status: 404, code: "not_found", message: "no \(what) with this ID exists for this key", field: nil)
    }

    /// The response, tagged with the request ID.
    var response: HTTPResponse {
        var body = ErrorBody.Detail(code: code, message: message, field: field, limit: limit)
        if !issues.isEmpty { body.issues = issues }
        var response = JSON.response(status: status, ErrorBody(error: body))
        if let retryAfter { response.headers.append(("Retry-After", String(retryAfter))) }
        return response
    }
}

struct ErrorBody: Encodable {
    struct Detail: Encodable {
        var code: String
        var message: String
        var field: String?
        var limit: String?
        var issues: [ValidationIssue]?
    }
    var error: Detail
}

/// JSON in and out of the API.
enum JSON {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// JSON text with sorted keys.
    static func text(_ value: some Encodable) -> String {
        (try? String(decoding: encoder().encode(value), as: UTF8.self)) ?? "null"
    }

    /// A list of strings as JSON text, written by hand: the text the encoder writes (identifiers
    /// and audiences are bound to statements this way on the send's path).
    static func text(_ values: [String]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.reduce(2) { $0 + $1.utf8.count + 3 })
        JSONObjectWriter.appendArray(values, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A list of whole numbers as JSON text, written by hand (row numbers bound to statements).
    static func text(_ values: [Int]) -> String {
        "[" + values.map(String.init).joined(separator: ",") + "]"
    }

    /// A string as JSON text, written by hand.
    static func text(_ value: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count + 2)
        JSONWriter.appendString(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func response(status: Int, _ value: some Encodable) -> HTTPResponse {
        let body = (try? encoder().encode(value)).map(Array.init) ?? Array("{}".utf8)
        return HTTPResponse(status: status, contentType: "application/json", body: body)
    }

    /// Throws unless the request has a body that claims to be JSON.
    static func checkBody(_ request: HTTPRequest) throws {
        if let contentType = request.headers["content-type"], !isJSONMediaType(contentType) {
            throw APIError(status: 415, code: "unsupported_media_type", message: "send the body as application/json", field: nil)
        }
        guard !request.body.isEmpty else {
            throw APIError(status: 400, code: "malformed_json", message: "the body is empty; send a JSON object", field: nil)
        }
    }

    /// Decodes a request body; anything wrong is a 400 that names the field.
    static func decode<T: Decodable>(_ type: T.Type, from request: HTTPRequest) throws -> T {
        try checkBody(request)
        if let field = DuplicateKeyScanner.firstDuplicate(in: request.body) {
            throw APIError.duplicate(field)
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(request.body))
        } catch {
            throw APIError.invalidJSON(error)
        }
    }

    /// Whether a `Content-Type` value is `application/json`, in any case, alone or with parameters
    /// (`; charset=utf-8`), around optional whitespace (RFC 9110 section 8.3): not a prefix match,
    /// so `application/jsonp` and `application/json-patch+json` are not JSON here.
    static func isJSONMediaType(_ value: String) -> Bool {
        var utf8 = Substring(value).utf8
        while let first = utf8.first, first == 0x20 || first == 0x09 { utf8.removeFirst() }
        let type = "application/json".utf8
        guard utf8.count >= type.count, utf8.prefix(type.count).elementsEqual(type, by: { ($0 | 0x20) == $1 }) else { return false }
        for byte in utf8.dropFirst(type.count) {
            if byte == UInt8(ascii: ";") { return true }
            if byte != 0x20 && byte != 0x09 { return false }
        }
        return true
    }
}
