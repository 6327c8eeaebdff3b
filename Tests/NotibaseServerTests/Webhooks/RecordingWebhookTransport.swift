import Foundation
import NotibaseCore
import Synchronization
@testable import NotibaseServer
@testable import NotibaseDomain
@testable import NotibaseStore
@testable import NotibaseSQLite
@testable import NotibasePostgres
@testable import NotibaseHTTP
@testable import NotibaseOutbound
@testable import NotibaseWebhooks
@testable import NotibaseServices
@testable import NotibaseAPI
@testable import NotibaseDelivery
@testable import NotibaseServerTestSupport

/// A transport double: records every request and answers as the test says (200 unless told
/// otherwise for a URL), and refuses URLs that are not `https` or name the host `internal`.
final class RecordingWebhookTransport: WebhookTransport {
    private let state = Mutex<(requests: [WebhookRequest], answers: [String: [WebhookAttempt.Outcome]])>(([], [:]))
    private let posting = Mutex<(@Sendable () -> Void)?>(nil)

    /// Runs `action` during every request (a test's clock moved by each, say).
    func whilePosting(_ action: @escaping @Sendable () -> Void) {
        posting.withLock { $0 = action }
    }

    /// The next requests to `url` end with these outcomes, in turn; then 200 again.
    func answer(_ url: String, _ outcomes: [WebhookAttempt.Outcome]) {
        state.withLock { $0.answers[url, default: []] += outcomes }
    }

    /// Forgets what was queued for `url`: it answers 200 again.
    func clear(_ url: String) {
        state.withLock { $0.answers[url] = nil }
    }

    var requests: [WebhookRequest] { state.withLock { $0.requests } }

    func requests(to url: String) -> [WebhookRequest] { requests.filter { $0.url == url } }

    func refusal(of url: String, appID: String) async -> WebhookURLRefusal? {
        guard url.hasPrefix("https://") else { return WebhookURLRefusal(reason: .notHTTPS, detail: "the scheme must be https") }
        if url.contains("://internal") { return WebhookURLRefusal(reason: .forbiddenAddress, detail: "internal resolves to 10.0.0.1") }
        return nil
    }

    func post(_ request: WebhookRequest) async -> WebhookAttempt {
        posting.withLock { $0 }?()
        let outcome = state.withLock { state -> WebhookAttempt.Outcome in
            state.requests.append(request)
            guard var queued = state.answers[request.url], !queued.isEmpty else { return .answered(status: 200, retryAfter: nil) }
            let next = queued.removeFirst()
            state.answers[request.url] = queued
            return next
        }
        let text = if case .answered(let status, _) = outcome { "status \(status)" } else { "" }
        return WebhookAttempt(outcome: outcome, latency: .milliseconds(12), answerPrefix: text)
    }
}

/// A request as a receiver sees it: headers by name, the batch's events.
struct ReceivedBatch {
    var id: String
    var timestamp: Int
    var signature: String
    var body: [UInt8]
    var json: JSONValue

    init(_ request: WebhookRequest) throws {
        func header(_ name: String) -> String { request.headers.first { $0.name == name }?.value ?? "" }
        id = header("webhook-id")
        timestamp = Int(header("webhook-timestamp")) ?? 0
        signature = header("webhook-signature")
        body = request.body
        json = try JSONDecoder().decode(JSONValue.self, from: Data(request.body))
    }

    var events: [JSONValue] { json["data"]["events"].array }
    var types: [String] { events.map { $0["type"].string ?? "" } }

    /// Whether the signature verifies with `secret`, as a Standard Webhooks receiver checks it.
    func verifies(with secret: String) throws -> Bool {
        guard let key = WebhookSignature.key(of: secret) else { return false }
        let expected = try WebhookSignature.header(id: id, timestamp: timestamp, body: body, keys: [key])
        return signature.split(separator: " ").contains { $0 == expected }
    }
}
