/// What the HTTP server hands complete requests to.
public protocol HTTPResponder: Sendable {
    /// Answers on the server's polling thread without suspending the connection, for trivial
    /// routes such as `/healthz`; nil sends the request to ``respond(to:)``.
    func respondImmediately(to request: HTTPRequest) -> HTTPResponse?
    /// Answers a request; runs as a Swift task while the connection waits suspended.
    func respond(to request: HTTPRequest) async -> HTTPResponse
    /// The answer to a body larger than the configured limit.
    func bodyTooLarge(_ request: HTTPRequest, limit: Int) -> HTTPResponse
}
