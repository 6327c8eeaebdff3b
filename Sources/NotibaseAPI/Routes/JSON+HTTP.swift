import Foundation
package import NotibaseDomain
package import NotibaseHTTP
import NotibaseWebhooks
import NotibaseServices

/// JSON in and out of the API: answers, and request bodies checked and decoded.
extension JSON {
    package static func response(status: Int, _ value: some Encodable) -> HTTPResponse {
        let body = (try? encoder().encode(value)).map(Array.init) ?? Array("{}".utf8)
        return HTTPResponse(status: status, contentType: "application/json", body: body)
    }

    /// Throws unless the request has a body that claims to be JSON.
    package static func checkBody(_ request: HTTPRequest) throws {
        if let contentType = request.headers["content-type"], !isJSONMediaType(contentType) {
            throw APIError(status: 415, code: "unsupported_media_type", message: "send the body as application/json", field: nil)
        }
        guard !request.body.isEmpty else {
            throw APIError(status: 400, code: "malformed_json", message: "the body is empty; send a JSON object", field: nil)
        }
    }

    /// Decodes a request body; anything wrong is a 400 that names the field.
    package static func decode<T: Decodable>(_ type: T.Type, from request: HTTPRequest) throws -> T {
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
    package static func isJSONMediaType(_ value: String) -> Bool {
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
