import NotibaseDomain
import NotibaseStore
import NotibaseOutbound
/// How a batch of events reaches a customer's endpoint: one POST, and what became of it. The
/// dispatcher (what to send, when, how often) knows only this protocol; the transport owns the
/// network and the address policy (https only, public addresses only, checked again at connect
/// time, no redirects, bounded answers). Tests use an in-process double.
package protocol WebhookTransport: Sendable {
    /// Why `url` may not be registered as an endpoint (its scheme, host and port, and the
    /// addresses its name resolves to now), or nil when it may.
    /// `appID` is the app asking: its lookups are bounded apart from other apps'.
    func refusal(of url: String, appID: String) async -> WebhookURLRefusal?

    /// Sends one POST. Never throws: every failure is an outcome.
    func post(_ request: WebhookRequest) async -> WebhookAttempt
}

/// One signed request to an endpoint.
package struct WebhookRequest: Sendable {
    /// The app whose endpoint it is: its name lookups are bounded apart from other apps'.
    package var appID: String
    package var url: String
    /// Sent as given, after the transport's own (`Host`, `Content-Length`, `Content-Type: application/json`).
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]
    /// The whole attempt's deadline: resolving, connecting, sending and reading the answer.
    package var timeout: Duration
}

/// Why a URL is not an endpoint Notibase will call.
package struct WebhookURLRefusal: Error, Sendable, Equatable {
    package enum Reason: String, Sendable {
        /// Not `https` (and insecure endpoints are not allowed on this server).
        case notHTTPS = "not_https"
        /// Not a URL with a host, or with user information, or too long.
        case malformed
        /// The host is, or resolves to, an address that is not public: loopback, private,
        /// link-local, multicast, unspecified, or the cloud metadata range.
        case forbiddenAddress = "forbidden_address"
        /// The host's name does not resolve.
        case unresolvable
    }

    package var reason: Reason
    /// Says which part of the URL, without echoing secrets it may carry, nor the addresses a
    /// name resolves to.
    package var detail: String

    /// The setting that allows `http`, loopback and private addresses (`notibase serve`).
    package static let developmentFlag = "--webhook-allow-insecure (NOTIBASE_WEBHOOK_ALLOW_INSECURE=on)"

    /// A name that does not resolve, or not before the deadline: told alike.
    package static func unresolvable(_ host: String) -> WebhookURLRefusal {
        WebhookURLRefusal(reason: .unresolvable, detail: "the host '\(host)' does not resolve")
    }
}

/// What one POST became.
package struct WebhookAttempt: Sendable {
    package enum Outcome: Sendable, Equatable {
        /// The endpoint answered (redirects are not followed: a 3xx is an answer like any other).
        /// `retryAfter` is the `Retry-After` header when present and valid.
        case answered(status: Int, retryAfter: Duration?)
        /// The address policy refused the URL when connecting (DNS may have changed since registration).
        case refused(WebhookURLRefusal)
        /// The deadline passed before a whole answer's head arrived.
        case timedOut
        /// Resolving, connecting, TLS or the connection itself failed; `reason` says which, in words.
        case failed(reason: String)
    }

    package var outcome: Outcome
    package var latency: Duration
    /// The answer body's first bytes as text (at most 1 KB read, invalid UTF-8 replaced, control
    /// characters other than newline removed), for the attempts log; empty when there was no answer.
    package var answerPrefix: String
    /// Whether the request went on a connection an earlier answer left open (decision 0045).
    package var onKeptConnection = false
}
