package import NotibaseDomain
import NotibaseStore
import NotibaseOutbound
extension Metrics {
    /// One request to a webhook endpoint, as ``recordWebhookRequest(outcome:seconds:events:onKeptConnection:)`` counts it.
    package func recordWebhookRequest(_ attempt: WebhookAttempt, events: Int) {
        recordWebhookRequest(
            outcome: Self.webhookOutcome(attempt.outcome), seconds: attempt.latency.seconds, events: events,
            onKeptConnection: attempt.onKeptConnection)
    }

    /// `2xx` to `5xx` for an answer (`other` for a status outside 200–599), else `timed_out`,
    /// `failed` or `refused` (the address policy).
    package static func webhookOutcome(_ outcome: WebhookAttempt.Outcome) -> String {
        switch outcome {
        case .answered(let status, _): (200..<600).contains(status) ? "\(status / 100)xx" : "other"
        case .timedOut: "timed_out"
        case .failed: "failed"
        case .refused: "refused"
        }
    }
}
