import Foundation
import NotibaseSenders
import Synchronization

/// The real transport: one HTTP/1.1 POST per attempt, over TLS verified against the system's
/// certificate authorities (with SNI), driven by one poller thread (`WebhookPoller`). Before every
/// attempt the host is resolved again and every address it resolves to must be public; the
/// request goes to exactly one of the addresses checked, so DNS that changes between the check and
/// the connect cannot steer it: on a connection kept from an earlier answer to that same address,
/// name and trust, or on a new one. Redirects are answers, never followed. docs/decisions/0036
/// and 0045.
struct HTTPSWebhookTransport: WebhookTransport {
    /// How long registration waits for a host name to resolve.
    static let registrationLookupTimeout: Duration = .seconds(10)

    /// `http` URLs and loopback and private addresses allowed (`--webhook-allow-insecure`): for
    /// development and tests only.
    let allowInsecure: Bool
    private let resolver: any WebhookResolver
    private let tls: Result<WebhookTLSContext, OpenSSLFailure>

    init(allowInsecure: Bool, resolver: any WebhookResolver = SystemResolver(), trust: WebhookTrust = .system) {
        self.allowInsecure = allowInsecure
        self.resolver = resolver
        tls = Result { () throws(OpenSSLFailure) in try WebhookTLSContext(trust: trust) }
    }

    func refusal(of url: String) async -> WebhookURLRefusal? {
        switch WebhookURL.parse(url, allowInsecure: allowInsecure) {
        case .failure(let refusal):
            return refusal
        case .success(let parsed):
            switch await checkedAddress(of: parsed, deadline: .now + Self.registrationLookupTimeout) {
            case .success: return nil
            case .failure(.refused(let refusal)): return refusal
            case .failure(.timedOut):
                return WebhookURLRefusal(reason: .unresolvable, detail: "the host '\(parsed.host)' did not resolve within \(Self.registrationLookupTimeout)")
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
        switch await checkedAddress(of: url, deadline: deadline) {
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
    private func checkedAddress(of url: WebhookURL, deadline: ContinuousClock.Instant) async -> Result<IPAddress, CheckFailure> {
        let addresses: [IPAddress]
        if let literal = url.literalAddress {
            addresses = [literal]
        } else {
            guard let resolved = await resolve(url.host, deadline: deadline) else { return .failure(.timedOut) }
            addresses = resolved
        }
        guard let first = addresses.first(where: \.isIPv4) ?? addresses.first else {
            return .failure(.refused(WebhookURLRefusal(reason: .unresolvable, detail: "the host '\(url.host)' does not resolve")))
        }
        for address in addresses where !allows(address.scope) {
            let resolution = url.literalAddress == nil ? "the host '\(url.host)' resolves to \(address)" : "the host \(address)"
            return .failure(.refused(WebhookURLRefusal(
                reason: .forbiddenAddress, detail: "\(resolution), a \(address.scope.rawValue) address, not a public one")))
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

    /// What the resolver answers before `deadline`, or nil when it has not by then (the lookup
    /// goes on in its own thread and its answer is dropped).
    private func resolve(_ host: String, deadline: ContinuousClock.Instant) async -> [IPAddress]? {
        let race = LookupRace()
        return await withCheckedContinuation { continuation in
            race.start(continuation)
            let timer = Task {
                try? await Task.sleep(until: deadline, clock: .continuous)
                race.end(with: nil)
            }
            Task { [resolver] in
                race.end(with: await resolver.addresses(of: host))
                timer.cancel()
            }
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

/// A lookup against its deadline: whichever ends first resumes the continuation, once.
private final class LookupRace: Sendable {
    private let continuation = Mutex<CheckedContinuation<[IPAddress]?, Never>?>(nil)

    func start(_ continuation: CheckedContinuation<[IPAddress]?, Never>) {
        self.continuation.withLock { $0 = continuation }
    }

    func end(with addresses: [IPAddress]?) {
        continuation.withLock { $0.take() }?.resume(returning: addresses)
    }
}
