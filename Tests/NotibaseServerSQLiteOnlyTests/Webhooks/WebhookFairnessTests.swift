import Foundation
import Synchronization
import Testing
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
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// One app's slow endpoints beside another app's (issue 43): an app with many endpoints that
/// answer only after seconds, inside the deadline, once took every one of a node's slots and the
/// other apps' endpoints received nothing for as long as it kept them busy. The lease's order and
/// shares are the storage contract's on both backends (WebhookStorageContractTests+Fairness); this
/// is the dispatcher that uses them, on SQLite.
@Suite("Webhook fairness") struct WebhookFairnessTests {
    @Test(.timeLimit(.minutes(3)))
    func aSlowAppsEndpointsLeaveAnotherAppsEndpointItsTurn() async throws {
        let transport = HoldingWebhookTransport(holding: "slow-")
        let harness = try await Harness(webhookTransport: transport)
        let slow = try await harness.createApp("slow")
        for number in 1...6 {
            let reply = await harness.request("POST", "/v1/webhooks", key: slow.serverKey, body: #"{"url": "https://slow-\#(number).example.com/"}"#)
            try #require(reply.status == 201, "\(reply.text)")
        }
        let other = try await harness.createApp("other")
        let created = await harness.request("POST", "/v1/webhooks", key: other.serverKey, body: #"{"url": "https://fast.example.com/"}"#)
        try #require(created.status == 201, "\(created.text)")

        var options = WebhookDispatcher.Options()
        options.batchWait = .zero
        options.endpointsAtOnce = 4
        let dispatcher = WebhookDispatcher(
            store: harness.store, transport: transport, box: try SecretBox(key: Harness.secretKey), clock: harness.time.wallClock, options: options)
        // The slow app's events first: its endpoints are due before the other's.
        try await harness.registerDevice(slow, number: 1)
        let running = Task { await dispatcher.run(interval: .milliseconds(20)) }
        // Whatever happens, the held requests end, and the dispatcher with them.
        defer {
            running.cancel()
            transport.releaseAll()
        }
        try await waitUntil(timeout: .seconds(60)) { transport.held >= 3 }
        try await harness.registerDevice(other, number: 2)
        // The other app's endpoint has its turn while the slow ones are held.
        try await waitUntil(timeout: .seconds(60)) { !transport.answered(containing: "fast.example.com").isEmpty }
        // Alone, the slow app held three of the four slots, a quarter kept for an app arriving.
        #expect(transport.mostHeld == 3)
    }
}

/// A transport whose requests to URLs containing `holding` wait until released (an endpoint that
/// answers just inside the deadline, for as long as a test needs); the others answer 200 at once.
final class HoldingWebhookTransport: WebhookTransport {
    private let holding: String
    private struct State {
        var waiting: [CheckedContinuation<Void, Never>] = []
        var released = false
        var mostHeld = 0
        var answered: [String] = []
    }
    private let state = Mutex(State())

    init(holding: String) { self.holding = holding }

    var held: Int { state.withLock { $0.waiting.count } }
    var mostHeld: Int { state.withLock { $0.mostHeld } }
    func answered(containing text: String) -> [String] { state.withLock { $0.answered.filter { $0.contains(text) } } }

    func releaseAll() {
        let waiting = state.withLock { state in
            state.released = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    func refusal(of url: String, appID: String) async -> WebhookURLRefusal? { nil }

    func post(_ request: WebhookRequest) async -> WebhookAttempt {
        if request.url.contains(holding) {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    guard !state.released else { return true }
                    state.waiting.append(continuation)
                    state.mostHeld = max(state.mostHeld, state.waiting.count)
                    return false
                }
                if now { continuation.resume() }
            }
        }
        state.withLock { $0.answered.append(request.url) }
        return WebhookAttempt(outcome: .answered(status: 200, retryAfter: nil), latency: .milliseconds(1), answerPrefix: "")
    }
}
