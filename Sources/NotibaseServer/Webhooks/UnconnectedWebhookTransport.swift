/// The transport of a server started without one: URLs must be `https` with a host, and nothing
/// is sent (each attempt fails, saying why, and is retried). The real transport replaces it where
/// the server is wired.
struct UnconnectedWebhookTransport: WebhookTransport {
    func refusal(of url: String) async -> WebhookURLRefusal? {
        guard url.hasPrefix("https://") else { return WebhookURLRefusal(reason: .notHTTPS, detail: "the scheme must be https") }
        guard url.dropFirst(8).first.map({ $0 != "/" }) ?? false else { return WebhookURLRefusal(reason: .malformed, detail: "the URL has no host") }
        return nil
    }

    func post(_ request: WebhookRequest) async -> WebhookAttempt {
        WebhookAttempt(outcome: .failed(reason: "this server has no webhook transport"), latency: .zero, answerPrefix: "")
    }
}
