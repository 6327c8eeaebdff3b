import Synchronization

/// Counters and latency histograms, rendered in the Prometheus text format at `/metrics`.
package final class Metrics: Sendable {
    private struct RequestKey: Hashable { var route: String; var method: String; var status: Int }
    private struct SendKey: Hashable { var provider: String; var outcome: String }

    private struct State {
        package var requests: [RequestKey: Int] = [:]
        package var requestLatency: [String: Histogram] = [:]
        package var sends: [SendKey: Int] = [:]
        package var sendLatency: [String: Histogram] = [:]
        package var deliveriesQueued = 0
        package var receipts: [String: Int] = [:]
        /// Deliveries not yet final, as last measured (``QueueDepthProbe``); nil until then.
        package var queueDepth: Int?
        package var webhookRequests: [String: Int] = [:]
        package var webhookLatency: [String: Histogram] = [:]
        package var webhookEventsDelivered = 0
        package var webhookKeptConnections = 0
        /// Credential tests finished, by provider and state (no app label: apps are many).
        package var credentialTests: [SendKey: Int] = [:]
    }

    private let state = Mutex(State())
    /// The trial settings the server runs with: a gauge of 1 each, 0 for the others.
    private let trial: [TrialSetting]

    package init(trial: [TrialSetting] = []) {
        self.trial = trial
    }

    /// One answered HTTP request; `route` is the pattern (`/v1/devices/{deviceId}`), not the path
    /// (`unmatched`, `rejected` or `too_large` when there is none). A method outside HTTP's usual
    /// few is recorded as `other`: labels come from a fixed set, so no client can grow /metrics.
    package func recordRequest(route: String, method: String, status: Int, seconds: Double) {
        let method = Self.methodLabel(method)
        state.withLock { state in
            state.requests[RequestKey(route: route, method: method, status: status), default: 0] += 1
            state.requestLatency[route, default: Histogram()].observe(seconds)
        }
    }

    /// The method's label: itself when it is one of HTTP's usual methods, else `other`.
    package static func methodLabel(_ method: String) -> String {
        switch method {
        case "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS": return method
        default: return "other"
        }
    }

    /// One batch handed to a sender: how many pushes ended in each outcome, and how long it took.
    package func recordSends(provider: String, outcomes: [String: Int], seconds: Double) {
        state.withLock { state in
            for (outcome, count) in outcomes {
                state.sends[SendKey(provider: provider, outcome: outcome), default: 0] += count
            }
            state.sendLatency[provider, default: Histogram()].observe(seconds)
        }
    }

    package func recordFanOut(deliveries: Int) {
        state.withLock { $0.deliveriesQueued += deliveries }
    }

    package func recordReceipt(event: String) {
        state.withLock { $0.receipts[event, default: 0] += 1 }
    }

    /// One request to a webhook endpoint: its outcome as a label from a fixed set (never the
    /// endpoint, which tenants choose: `Metrics.webhookOutcome` in NotibaseWebhooks), how long it
    /// took, how many events it carried when the endpoint took them (2xx), and whether it went on a
    /// kept connection.
    package func recordWebhookRequest(outcome: String, seconds: Double, events: Int, onKeptConnection: Bool) {
        state.withLock { state in
            state.webhookRequests[outcome, default: 0] += 1
            state.webhookLatency[outcome, default: Histogram()].observe(seconds)
            if outcome == "2xx" { state.webhookEventsDelivered += events }
            if onKeptConnection { state.webhookKeptConnections += 1 }
        }
    }

    /// One credential test finished (``CredentialTester``) with `state` (`verified`, `rejected`,
    /// `unreachable`) as `result`. Not a send: ``sends(provider:outcome:)`` never counts it.
    package func recordCredentialTest(provider: String, result: String) {
        state.withLock { $0.credentialTests[SendKey(provider: provider, outcome: result), default: 0] += 1 }
    }

    /// The queue's depth as just measured: what `/metrics` shows until the next measurement.
    package func recordQueueDepth(_ depth: Int) {
        state.withLock { $0.queueDepth = depth }
    }

    /// The number of sends recorded so far for a provider and outcome.
    package func sends(provider: String, outcome: String) -> Int {
        state.withLock { $0.sends[SendKey(provider: provider, outcome: outcome)] ?? 0 }
    }

    /// The exposition text. It reads only what was recorded: a scrape never asks the database
    /// (the queue's depth is measured in the background, ``QueueDepthProbe``).
    package func render() -> String {
        let snapshot = state.withLock { $0 }
        var text = ""
        text += "# HELP notibase_http_requests_total HTTP requests answered, by route pattern, method and status.\n"
        text += "# TYPE notibase_http_requests_total counter\n"
        for (key, count) in snapshot.requests.sorted(by: { "\($0.key.route)\($0.key.method)\($0.key.status)" < "\($1.key.route)\($1.key.method)\($1.key.status)" }) {
            text += "notibase_http_requests_total{route=\"\(key.route)\",method=\"\(key.method)\",status=\"\(key.status)\"} \(count)\n"
        }
        text += Histogram.render(name: "notibase_http_request_duration_seconds", help: "Time from a complete request to its answer.", label: "route", snapshot.requestLatency)
        text += "# HELP notibase_sends_total Pushes handed to a sender, by provider and outcome.\n"
        text += "# TYPE notibase_sends_total counter\n"
        for (key, count) in snapshot.sends.sorted(by: { "\($0.key.provider)\($0.key.outcome)" < "\($1.key.provider)\($1.key.outcome)" }) {
            text += "notibase_sends_total{provider=\"\(key.provider)\",outcome=\"\(key.outcome)\"} \(count)\n"
        }
        text += Histogram.render(name: "notibase_send_batch_duration_seconds", help: "Time a sender took for one batch.", label: "provider", snapshot.sendLatency)
        text += "# HELP notibase_deliveries_created_total Deliveries written by fan-out.\n"
        text += "# TYPE notibase_deliveries_created_total counter\n"
        text += "notibase_deliveries_created_total \(snapshot.deliveriesQueued)\n"
        text += "# HELP notibase_receipts_total Receipts accepted, by event.\n"
        text += "# TYPE notibase_receipts_total counter\n"
        for (event, count) in snapshot.receipts.sorted(by: { $0.key < $1.key }) {
            text += "notibase_receipts_total{event=\"\(event)\"} \(count)\n"
        }
        text += "# HELP notibase_webhook_requests_total Requests to webhook endpoints, by outcome (2xx to 5xx, other, timed_out, failed, refused).\n"
        text += "# TYPE notibase_webhook_requests_total counter\n"
        for (outcome, count) in snapshot.webhookRequests.sorted(by: { $0.key < $1.key }) {
            text += "notibase_webhook_requests_total{outcome=\"\(outcome)\"} \(count)\n"
        }
        text += Histogram.render(
            name: "notibase_webhook_request_duration_seconds", help: "Time from a webhook request's start (its host looked up) to its answer or failure.",
            label: "outcome", snapshot.webhookLatency)
        text += "# HELP notibase_webhook_events_delivered_total Webhook events in requests an endpoint answered with 2xx.\n"
        text += "# TYPE notibase_webhook_events_delivered_total counter\nnotibase_webhook_events_delivered_total \(snapshot.webhookEventsDelivered)\n"
        text += "# HELP notibase_webhook_requests_on_kept_connections_total Webhook requests sent on a connection an earlier answer left open.\n"
        text += "# TYPE notibase_webhook_requests_on_kept_connections_total counter\nnotibase_webhook_requests_on_kept_connections_total \(snapshot.webhookKeptConnections)\n"
        text += "# HELP notibase_credentials_test_total Credential tests finished (a push that delivers nothing), by provider and state: verified, rejected or unreachable.\n"
        text += "# TYPE notibase_credentials_test_total counter\n"
        for (key, count) in snapshot.credentialTests.sorted(by: { "\($0.key.provider)\($0.key.outcome)" < "\($1.key.provider)\($1.key.outcome)" }) {
            text += "notibase_credentials_test_total{provider=\"\(key.provider)\",state=\"\(key.outcome)\"} \(count)\n"
        }
        if let depth = snapshot.queueDepth {
            text += "# HELP notibase_queue_depth Deliveries not yet in a final state (queued, retrying or being sent), measured every few seconds.\n"
            text += "# TYPE notibase_queue_depth gauge\nnotibase_queue_depth \(depth)\n"
        }
        text += "# HELP notibase_trial_mode 1 when the server runs with a setting for tests and demos only (sender_simulated and sender_accept deliver nothing).\n"
        text += "# TYPE notibase_trial_mode gauge\n"
        for setting in TrialSetting.allCases {
            text += "notibase_trial_mode{setting=\"\(setting.metricLabel)\"} \(trial.contains(setting) ? 1 : 0)\n"
        }
        return text
    }
}

/// A cumulative latency histogram with fixed buckets.
package struct Histogram: Sendable {
    package static let bounds: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    package var counts = [Int](repeating: 0, count: Histogram.bounds.count)
    package var count = 0
    package var sum = 0.0

    package mutating func observe(_ seconds: Double) {
        count += 1
        sum += seconds
        if let index = Self.bounds.firstIndex(where: { seconds <= $0 }) { counts[index] += 1 }
    }

    package static func render(name: String, help: String, label: String, _ histograms: [String: Histogram]) -> String {
        var text = "# HELP \(name) \(help)\n# TYPE \(name) histogram\n"
        for (value, histogram) in histograms.sorted(by: { $0.key < $1.key }) {
            var cumulative = 0
            for (index, bound) in bounds.enumerated() {
                cumulative += histogram.counts[index]
                text += "\(name)_bucket{\(label)=\"\(value)\",le=\"\(bound)\"} \(cumulative)\n"
            }
            text += "\(name)_bucket{\(label)=\"\(value)\",le=\"+Inf\"} \(histogram.count)\n"
            text += "\(name)_sum{\(label)=\"\(value)\"} \(histogram.sum)\n"
            text += "\(name)_count{\(label)=\"\(value)\"} \(histogram.count)\n"
        }
        return text
    }
}
