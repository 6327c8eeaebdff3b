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
    /// How long registration waits for a host name to resolve: an answer within a few seconds
    /// whatever DNS does (issue 43).
    package static let registrationLookupTimeout: Duration = .seconds(5)

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
        switch await checked(url, appID: appID, deadline: .now + Self.registrationLookupTimeout) {
        case .success: return nil
        case .failure(.refused(let refusal)): return refusal
        // Said as a name that does not resolve is: no more is told about the resolver's answers.
        case .failure(.timedOut(let host)): return WebhookURLRefusal.unresolvable(host)
        }
    }

    /// The answer's body is read to its first 1 KB (``HTTPClient/Request/answerLimit``).
    package func post(_ request: WebhookRequest) async -> WebhookAttempt {
        let start = ContinuousClock.now
        var attempt = WebhookAttempt(outcome: .timedOut, latency: .zero, answerPrefix: "")  // unless it comes to more
        switch await checked(request.url, appID: request.appID, deadline: start + request.timeout) {
        case .failure(.timedOut): break
        case .failure(.refused(let refusal)): attempt.outcome = refusal.reason == .unresolvable ? .failed(reason: refusal.detail) : .refused(refusal)
        case .success(let (url, address)):
            // The peer connected must be `address`, which the policy just passed.
            let sent = await client.send(HTTPClient.Request(
                url: "\(url.isTLS ? "https" : "http")://\(url.hostHeader)\(url.target)", headers: [("Content-Type", "application/json")] + request.headers,
                body: request.body, address: address, deadline: start + request.timeout, trust: trust, allowsPlainHTTP: allowInsecure))
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

    // MARK: The address policy

    private enum CheckFailure: Error {
        case refused(WebhookURLRefusal)
        case timedOut(host: String)
    }

    /// `text` parsed, and the address to connect to: the URL's own when it is an address, else one
    /// its host resolves to now (IPv4 first), once every address it resolves to passed the policy.
    private func checked(_ text: String, appID: String, deadline: ContinuousClock.Instant) async -> Result<(WebhookURL, IPAddress), CheckFailure> {
        let url: WebhookURL
        switch WebhookURL.parse(text, allowInsecure: allowInsecure) {
        case .success(let parsed): url = parsed
        case .failure(let refusal): return .failure(.refused(refusal))
        }
        let literal = url.literalAddress.map { [$0] }
        guard let addresses = literal != nil ? literal : await lookups.addresses(of: url.host, appID: appID, deadline: deadline) else {
            return .failure(.timedOut(host: url.host))
        }
        guard let first = addresses.first(where: \.isIPv4) ?? addresses.first else {
            return .failure(.refused(WebhookURLRefusal.unresolvable(url.host)))
        }
        if let refused = addresses.first(where: { !$0.scope.isAllowed(insecure: allowInsecure) }) {
            return .failure(.refused(url.refusal(of: refused)))
        }
        return .success((url, first))
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
