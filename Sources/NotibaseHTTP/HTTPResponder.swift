import NotibaseDomain
/// What the HTTP server hands complete requests to.
package protocol HTTPResponder: Sendable {
    /// How to answer `request`. Called on the server's polling thread, which serves every
    /// connection: it must not block (no I/O, no waiting for a lock held long); anything slower is
    /// answered ``HTTPAnswer/later(_:)``.
    func answer(_ request: HTTPRequest) -> HTTPAnswer
    /// The answer to a body larger than the configured limit.
    func bodyTooLarge(_ request: HTTPRequest, limit: Int) -> HTTPResponse
    /// The 400 answer to a request the HTTP layer refused (see ``HTTPRequestProblem``); the server
    /// closes the connection after it.
    func badRequest(_ request: HTTPRequest, _ problem: HTTPRequestProblem) -> HTTPResponse
    /// Looks at a request with a body before the body is read (its ``HTTPRequest/body`` is empty):
    /// whatever can be refused from the head (no key, a wrong key) is, so nobody without a key
    /// makes the server hold a body.
    func screen(_ head: HTTPRequest) -> HTTPScreening
    /// The answer to a request the HTTP layer refused for one of its limits or its shutdown.
    func refuse(_ request: HTTPRequest, _ refusal: HTTPRefusal) -> HTTPResponse
}

/// A responder's answer to a request.
package enum HTTPAnswer: Sendable {
    /// The response, made on the polling thread (trivial routes, errors found without waiting).
    case now(HTTPResponse)
    /// The connection waits, suspended; `start` is called once it does and answers through the
    /// ``HTTPReply`` it is given, from a task or any thread.
    case later(@Sendable (HTTPReply) -> Void)
}

/// Sends the response to a request whose connection waits. Call ``send(_:)`` exactly once.
package struct HTTPReply: Sendable {
    private let deliver: @Sendable (HTTPResponse) -> Void

    package init(_ deliver: @escaping @Sendable (HTTPResponse) -> Void) {
        self.deliver = deliver
    }

    package func send(_ response: HTTPResponse) {
        deliver(response)
    }
}

extension HTTPResponder {
    /// Every body is read.
    package func screen(_ head: HTTPRequest) -> HTTPScreening { .proceed }

    /// A plain JSON error with `Retry-After`.
    package func refuse(_ request: HTTPRequest, _ refusal: HTTPRefusal) -> HTTPResponse {
        let body = #"{"error":{"code":"\#(refusal.code)","message":"\#(refusal.message)"}}"#
        return HTTPResponse(status: refusal.status, headers: [("Content-Type", "application/json"), ("Retry-After", String(refusal.retryAfter))], body: Array(body.utf8))
    }

    /// The response the server would send for `request`, awaited: the server's own dispatch without
    /// sockets, for in-process tests and tools.
    package func response(to request: HTTPRequest) async -> HTTPResponse {
        switch answer(request) {
        case .now(let response):
            return response
        case .later(let start):
            return await withCheckedContinuation { continuation in
                start(HTTPReply { continuation.resume(returning: $0) })
            }
        }
    }
}
