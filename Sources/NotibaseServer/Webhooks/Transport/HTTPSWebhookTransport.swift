import Foundation
import NotibaseSenders

/// The real transport: one HTTP/1.1 POST per attempt, over TLS verified against the system's
/// certificate authorities (with SNI), driven by one poller thread (`WebhookPoller`). Before every
/// attempt the host is resolved again and every address it resolves to must be public; the
/// request goes to exactly one of the addresses checked, so DNS that changes between the check and
/// the connect cannot steer it: on a connection kept from an earlier answer to that same address,
/// name and trust, or on a new one. Redirects are answers, never followed. docs/decisions/0036
/// and 0045.
struct HTTPSWebhookTransport: WebhookTransport {
    /// How long registration waits for a host name to resolve: an answer within a few seconds
    /// whatever DNS does (issue 43).
    static let registrationLookupTimeout: Duration = .seconds(5)

    /// `http` URLs and loopback and private addresses allowed (`--webhook-allow-insecure`): for
    /// development and tests only.
    let allowInsecure: Bool
    private let lookups: WebhookLookups
    private let tls: Result<WebhookTLSContext, OpenSSLFailure>

    init(allowInsecure: Bool, resolver: any WebhookResolver = SystemResolver(), trust: WebhookTrust = .system) {
        self.allowInsecure = allowInsecure
        lookups = WebhookLookups(resolver: resolver)
        tls = Result { () throws(OpenSSLFailure) in try WebhookTLSContext(trust: trust) }
    }

    func refusal(of url: String, appID: String) async -> WebhookURLRefusal? {
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

    func post(_ request: WebhookRequest) async -> WebhookAttempt {
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
        var context: WebhookTLSContext?
        if url.isTLS {
            switch tls {
            case .success(let made): context = made
            case .failure(let failure): return attempt(.failed(reason: "TLS could not be set up: \(failure)"))
            }
        }
        guard let head = Self.requestHead(url: url, request: request) else {
            return attempt(.failed(reason: "a header's name or value holds a line break or is empty"))
        }
        let ending = await withCheckedContinuation { continuation in
            WebhookPoller.shared.submit(WebhookExchange.Job(
                address: address, url: url, tls: context, request: head + request.body, deadline: deadline,
                finish: { continuation.resume(returning: $0) }))
        }
        return attempt(ending.outcome, body: ending.body, onKeptConnection: ending.onKeptConnection)
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
        for address in addresses where !allows(address.scope) {
            // A name's addresses are never told: a server key would map the names of the network
            // the server sits in (issue 43). An address in the URL is the caller's own.
            let resolution = url.literalAddress == nil ? "the host '\(url.host)' resolves to" : "the host \(address) is"
            let development = [.loopback, .private].contains(address.scope) ? " (\(WebhookURLRefusal.developmentFlag) allows it, for development only)" : ""
            return .failure(.refused(WebhookURLRefusal(
                reason: .forbiddenAddress, detail: "\(resolution) a \(address.scope.rawValue) address, not a public one\(development)")))
        }
        return .success(first)
    }

    private func allows(_ scope: IPAddress.Scope) -> Bool {
        switch scope {
        case .public: true
        case .loopback, .private: allowInsecure
        default: false
        }
    }

    // MARK: The request

    /// The request line and headers: the transport's own, then the caller's; nil when a caller's
    /// header could split the head.
    private static func requestHead(url: WebhookURL, request: WebhookRequest) -> [UInt8]? {
        var head = "POST \(url.target) HTTP/1.1\r\nHost: \(url.hostHeader)\r\nContent-Length: \(request.body.count)\r\n"
            + "Content-Type: application/json\r\n"
        for header in request.headers {
            let unsafe = { (text: String) in text.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 } }
            guard !header.name.isEmpty, !header.name.contains(":"), !unsafe(header.name), !unsafe(header.value) else { return nil }
            head += "\(header.name): \(header.value)\r\n"
        }
        return Array((head + "\r\n").utf8)
    }

    /// An answer body's bytes as text for the attempts log: invalid UTF-8 replaced, control
    /// characters other than newline removed.
    static func text(_ bytes: [UInt8]) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars where scalar == "\n" || scalar.properties.generalCategory != .control {
            scalars.append(scalar)
        }
        return String(scalars)
    }
}
