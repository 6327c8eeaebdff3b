/// An HTTP response: status, headers and body.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Headers in the order they are sent.
    public var headers: [(name: String, value: String)]
    /// The body bytes.
    public var body: [UInt8]

    /// A response from its parts.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a body of the given content type.
    public init(status: Int, contentType: String, body: [UInt8]) {
        self.init(status: status, headers: [("Content-Type", contentType)], body: body)
    }

    /// The value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}
