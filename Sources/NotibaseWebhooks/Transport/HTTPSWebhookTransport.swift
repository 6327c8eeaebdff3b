import Foundation
import NotibaseDomain
import NotibaseStore
package import NotibaseOutbound

/// The real transport: one POST per attempt on the webhooks' ``HTTPClient`` (libcurl), over TLS
/// verified against the system's certificate authorities (with SNI). Before every attempt the
/// host is resolved again (``WebhookLookups``) and every address it resolves to must be public;
/// the request goes to one of the addresses checked, and ``HTTPClient`` holds it there (on a
/// kept connection too), so DNS that changes after the check cannot steer it. docs/decisions/0036
/// and 0045.
package struct HTTPSWebhookTransport: WebhookTransport {
    /// `http` URLs and loopback and private addresses allowed (`--webhook-allow-insecure`): for
    /// development and tests only.
    package let allowInsecure: Bool
    private let lookups: WebhookLookups
    private let trust: HTTPClient.Trust
    private let client: HTTPClient

    package init(allowInsecure: Bool, resolver: any WebhookResolver = SystemResolver(), trust: HTTPClient.Trust = .system, client: HTTPClient = .webhooks) {
        self.allowInsecure = allowInsecure
        lookups = WebhookLookups(resolver: resolver)
        self.trust = trust
        self.client = client
    }

    package func refusal(of url: String, appID: String) async -> WebhookURLRefusal? {
        await WebhookURL.check(url, allowInsecure: allowInsecure, lookups: lookups, appID: appID, deadline: .now + WebhookLookups.registrationTimeout).refusal
    }

    /// The answer's body is read to its first 1 KB (``HTTPClient/Request/answerLimit``).
    package func post(_ request: WebhookRequest) async -> WebhookAttempt {
        let start = ContinuousClock.now
        var attempt = WebhookAttempt(outcome: .timedOut, latency: .zero, answerPrefix: "")  // unless it comes to more
        switch await WebhookURL.check(request.url, allowInsecure: allowInsecure, lookups: lookups, appID: request.appID, deadline: start + request.timeout) {
        case .timedOut: break
        case .refused(let refusal): attempt.outcome = refusal.reason == .unresolvable ? .failed(reason: refusal.detail) : .refused(refusal)
        case .pinned(let url, let address):
            // The peer connected must be `address`, which the policy just passed.
            var post = HTTPClient.Request(url: "\(url.isTLS ? "https" : "http")://\(url.hostHeader)\(url.target)", address: address, deadline: start + request.timeout)
            post.headers = [("Content-Type", "application/json")] + request.headers
            post.body = request.body
            post.trust = trust
            post.allowsPlainHTTP = allowInsecure
            let sent = await client.send(post)
            attempt.onKeptConnection = sent.reusedConnection
            switch sent.outcome {
            case .answered(let answer):
                attempt.outcome = .answered(status: answer.status, retryAfter: answer.header("Retry-After").flatMap { RetryAfter.parse($0, now: .now) })
                attempt.answerPrefix = Self.text(answer.body)
            case .timedOut: break
            case .failed(let reason): attempt.outcome = .failed(reason: reason)
            case .peerRefused(let peer): attempt.outcome = .refused(url.refusal(of: peer))
            }
        }
        attempt.latency = .now - start
        return attempt
    }

    /// An answer body's bytes as text for the attempts log: invalid UTF-8 replaced, control
    /// characters other than newline removed.
    package static func text(_ bytes: [UInt8]) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars where scalar == "\n" || scalar.properties.generalCategory != .control {
            scalars.append(scalar)
        }
        return String(scalars)
    }
}
