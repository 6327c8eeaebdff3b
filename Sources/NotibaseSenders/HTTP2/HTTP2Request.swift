import NotibaseCore

/// One HTTP/2 request: what to send and how long the whole exchange may take.
public struct HTTP2Request: Sendable {
    /// The absolute `https://` URL.
    public var url: String
    /// The method; `POST` unless said otherwise.
    public var method: String
    /// The request headers, in order. Without a `content-type`, none is sent.
    public var headers: [HTTPHeader]
    /// The body bytes, sent as is.
    public var body: [UInt8]
    /// The limit for the whole exchange, from queueing to the last byte of the answer.
    public var timeout: Duration

    /// A request from its parts.
    public init(url: String, method: String = "POST", headers: [HTTPHeader] = [], body: [UInt8] = [], timeout: Duration = .seconds(30)) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// The answer to an `HTTP2Request`.
public struct HTTP2Response: Sendable, Equatable {
    /// The HTTP status.
    public var status: Int
    /// The response headers, names lowercased, in the order received.
    public var headers: [HTTPHeader]
    /// The response body.
    public var body: [UInt8]

    /// A response from its parts.
    public init(status: Int, headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of a header (`name` lowercase).
    public func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }
}
