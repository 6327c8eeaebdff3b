import Foundation
import NotibaseDomain
import NotibaseStore
import NotibaseOutbound

/// The transport of a server started without one: a URL must be `https` with a host and no user
/// information, and nothing is sent (each attempt fails, saying why, and is retried). The real
/// transport replaces it where the server is wired.
package struct UnconnectedWebhookTransport: WebhookTransport {
    package func refusal(of url: String, appID: String) async -> WebhookURLRefusal? {
        guard let parts = URLComponents(string: url), let host = parts.host, !host.isEmpty, parts.user == nil, parts.password == nil,
              url.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value != 0x7f }) else {
            return WebhookURLRefusal(reason: .malformed, detail: "not a URL with a host (and no user information)")
        }
        guard parts.scheme?.lowercased() == "https" else { return WebhookURLRefusal(reason: .notHTTPS, detail: "the scheme must be https") }
        return nil
    }

    package func post(_ request: WebhookRequest) async -> WebhookAttempt {
        WebhookAttempt(outcome: .failed(reason: "this server has no webhook transport"), latency: .zero, answerPrefix: "")
    }

    package init() {}
}
