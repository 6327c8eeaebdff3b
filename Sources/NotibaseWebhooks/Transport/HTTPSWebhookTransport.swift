import Foundation
import NotibaseDomain
import NotibaseStore
package import NotibaseOutbound

/// The real transport: one HTTP/1.1 POST per attempt on the webhooks' ``HTTPClient`` (libcurl),
/// over TLS verified against the system's certificate authorities (with SNI). Before every
/// attempt the host is resolved again (``WebhookLookups``) and every address it resolves to must
/// be public; the request goes to exactly one of the addresses checked, which is checked again
/// once connected, so DNS that changes between the check and the connect cannot steer it: on a
/// connection kept from an earlier answer to that same address, name and trust, or on a new one.
/// Redirects are answers, never followed. docs/decisions/0036 and 0045.
package struct HTTPSWebhookTransport: WebhookTransport {
    /// How long registration waits for a host name to resolve: an answer within a few seconds
    /// whatever DNS does (issue 43).
    package static let registrationLookupTimeout: Duration = .seconds(5)
    /// The most of an answer's body read: its first bytes go to the attempts log.
    package static let maxBodyBytes = 1024

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
        switch WebhookURL.parse(url, allowInsecure: allowInsecure) {
        case .failure(let refusal):
            return refusal
        case .success(let parsed):
            switch await checkedAddress(of: parsed, appID: appID, deadline: .now + Self.registrationLookupTimeout) {
            case .success: return nil
            case .failure(.refused(let refusal)): return refusal
            // Said as a name that does not resolve is: no more is told about the resolver's answers.
            case .failure(.timedOut): return WebhookURLRefusal.unresolvable(parsed.host)
            }
        }
    }

    package func post(_ request: WebhookRequest) async -> WebhookAttempt {
        let start = ContinuousClock.now
        let deadline = start + request.timeout
        func attempt(_ outcome: WebhookAttempt.Outcome, body: [UInt8] = [], onKeptConnection: Bool = false) -> WebhookAttempt {
            WebhookAttempt(outcome: outcome, latency: .now - start, answerPrefix: Self.text(body), onKeptConnection: onKeptConnection)
        }
        let url: WebhookURL
        switch WebhookURL.parse(request.url, allowInsecure: allowInsecure) {
        case .success(let parsed): url = parsed
        case .failure(let refusal): return attempt(.refused(refusal))
        }
        let address: IPAddress
        switch await checkedAddress(of: url, appID: request.appID, deadline: deadline) {
        case .success(let checked): address = checked
        case .failure(.timedOut): return attempt(.timedOut)
        case .failure(.refused(let refusal)) where refusal.reason == .unresolvable: return attempt(.failed(reason: refusal.detail))
        case .failure(.refused(let refusal)): return attempt(.refused(refusal))
        }
        let scheme = url.isTLS ? "https" : "http"
        let allowInsecure = allowInsecure
        let sent = await client.send(HTTPClient.Request(
            url: "\(scheme)://\(url.hostHeader)\(url.target)", headers: [("Content-Type", "application/json")] + request.headers,
            body: request.body, address: address, admits: { $0.scope.isAllowed(insecure: allowInsecure) }, deadline: deadline,
            answerLimit: Self.maxBodyBytes, trust: trust, allowsPlainHTTP: allowInsecure))
        let kept = sent.reusedConnection
        switch sent.outcome {
        case .answered(let answer):
            let retryAfter = answer.header("Retry-After").flatMap { RetryAfter.parse($0, now: .now) }
            return attempt(.answered(status: answer.status, retryAfter: retryAfter), body: answer.body, onKeptConnection: kept)
        case .timedOut: return attempt(.timedOut, onKeptConnection: kept)
        case .failed(let reason): return attempt(.failed(reason: reason), onKeptConnection: kept)
        case .peerRefused(let peer): return attempt(.refused(url.refusal(of: peer)), onKeptConnection: kept)
        }
    }

    // MARK: The address policy

    private enum CheckFailure: Error {
        case refused(WebhookURLRefusal)
        case timedOut
    }

    /// The address to connect to: the URL's own when it is an address, else one its host resolves
    /// to now (IPv4 first), once every address it resolves to passed the policy.
    private func checkedAddress(of url: WebhookURL, appID: String, deadline: ContinuousClock.Instant) async -> Result<IPAddress, CheckFailure> {
        let addresses: [IPAddress]
        if let literal = url.literalAddress {
            addresses = [literal]
        } else {
            guard let resolved = await lookups.addresses(of: url.host, appID: appID, deadline: deadline) else { return .failure(.timedOut) }
            addresses = resolved
        }
        guard let first = addresses.first(where: \.isIPv4) ?? addresses.first else {
            return .failure(.refused(WebhookURLRefusal.unresolvable(url.host)))
        }
        if let refused = addresses.first(where: { !$0.scope.isAllowed(insecure: allowInsecure) }) {
            return .failure(.refused(url.refusal(of: refused)))
        }
        return .success(first)
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
