import NotibaseDomain
/// An HTTP response: status, headers and body.
package struct HTTPResponse: Sendable {
    package var status: Int
    /// Headers in the order they are sent.
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]

    package init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a body of the given content type.
    package init(status: Int, contentType: String, body: [UInt8]) {
        self.init(status: status, headers: [("Content-Type", contentType)], body: body)
    }

    /// The value of a header, by case-insensitive name.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    package var text: String { String(decoding: body, as: UTF8.self) }
}
