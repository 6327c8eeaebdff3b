import NotibaseDomain
/// Why the HTTP layer answered a request without handing it to a route: a limit of the server's
/// own (bodies in flight, requests from one address) or its shutdown. Each answer says when to
/// retry.
package struct HTTPRefusal: Sendable, Equatable {
    package var status: Int
    /// A stable code for the error answer.
    package var code: String
    package var message: String
    /// Seconds to wait before retrying (`Retry-After`).
    package var retryAfter = 1

    package static let addressBusy = HTTPRefusal(
        status: 429, code: "too_many_requests",
        message: "this client address has as many requests in progress as the server allows; wait for their answers")
    package static let bodiesInFlight = HTTPRefusal(
        status: 503, code: "busy", message: "the server holds as many request bodies as it may right now; retry after the Retry-After seconds")
    package static let shuttingDown = HTTPRefusal(
        status: 503, code: "shutting_down", message: "the server is shutting down; retry, on another node or once it is back")
}

/// What the HTTP layer does with a request that has a body, once its head is read and before any
/// of the body is (``HTTPResponder/screen(_:)``).
package enum HTTPScreening: Sendable {
    /// Read the body.
    case proceed
    /// Answer this and read nothing more (the connection is closed after it).
    case refuse(HTTPResponse)
    /// The connection waits, suspended, until `start`'s callback says: nil to read the body, or
    /// the answer to send instead. Called exactly once, from any thread.
    case later(@Sendable (_ done: @escaping @Sendable (HTTPResponse?) -> Void) -> Void)
}
