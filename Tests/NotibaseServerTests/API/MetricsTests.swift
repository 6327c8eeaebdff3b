import Foundation
import NotibaseCore
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

/// `/metrics` costs the same however many scrape it: the queue's depth is measured in the
/// background and a scrape reads the last measurement; `--metrics-token` guards it.
@Suite("Metrics: background queue depth, token")
struct MetricsTests {
    static let message = #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#

    /// How many times the store was asked for the queue's depth.
    private final class Calls: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    /// A probe over the harness's store that counts its measurements.
    private static func countingProbe(_ harness: Harness) -> (QueueDepthProbe, Calls) {
        let calls = Calls()
        let store = harness.store
        let probe = QueueDepthProbe(metrics: harness.metrics, logger: .silent) {
            calls.add()
            return try await store.queueDepth()
        }
        return (probe, calls)
    }

    /// Scrapes until the queue's depth shows `depth` (60 s at most: a bound against a hang, not
    /// a speed check; in CI's main pass, every suite at once on two cores, the first 20 s of
    /// tests waited that long for the pool, and 10 s ran out).
    private static func waitForDepth(_ depth: Int, _ client: some TestClient, key: String? = nil) async throws {
        let line = "\nnotibase_queue_depth \(depth)\n"
        let deadline = ContinuousClock.now + .seconds(60)
        while !(try await scrape(client, key: key).text.contains(line)) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(try await scrape(client, key: key).text.contains(line))
    }

    private static func scrape(_ client: some TestClient, key: String? = nil) async throws -> Reply {
        try await client.request("GET", "/metrics", key: key)
    }

    @Test func scrapesReadTheLastMeasurementAndNeverTheStore() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        for number in 1...3 { try await harness.registerDevice(app, number: number) }
        _ = try await harness.send(app, Self.message)  // three deliveries queued by the post
        #expect(!(try await Self.scrape(harness).text.contains("notibase_queue_depth")))  // nothing measured yet

        let (probe, calls) = Self.countingProbe(harness)
        try await probe.runOnce()
        // Sixteen scrapers at once, as in the report: each answer is the measurement.
        let texts = try await withThrowingTaskGroup(of: [Reply].self) { group in
            for _ in 0..<16 {
                group.addTask { var replies: [Reply] = []; for _ in 0..<10 { replies.append(try await Self.scrape(harness)) }; return replies }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(texts.count == 160 && texts.allSatisfy { $0.status == 200 && $0.text.contains("\nnotibase_queue_depth 3\n") })

        // The queue grows; scrapes go on showing the measurement, and none of them counted it.
        _ = try await harness.send(app, Self.message)
        #expect(try await harness.store.queueDepth() == 6)
        for _ in 0..<20 { #expect(try await Self.scrape(harness).text.contains("\nnotibase_queue_depth 3\n")) }
        #expect(calls.value == 1)
        try await probe.runOnce()
        #expect(try await Self.scrape(harness).text.contains("\nnotibase_queue_depth 6\n"))
    }

    @Test func theProbeMeasuresEveryIntervalUntilCancelled() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1)
        let (probe, calls) = Self.countingProbe(harness)
        let loop = Task { await probe.run(interval: .milliseconds(20)) }
        try await Self.waitForDepth(0, harness)
        _ = try await harness.send(app, Self.message)
        try await Self.waitForDepth(1, harness)
        loop.cancel()
        await loop.value
        let stopped = calls.value
        #expect(stopped >= 2)
        try await Task.sleep(for: .milliseconds(100))
        #expect(calls.value == stopped)
    }

    @Test func theServerMeasuresInTheBackgroundAndMetricsNeedsItsToken() async throws {
        let token = "metrics-token-0123456789abcdef"
        let (server, directory) = try await InProcessServer.start {
            $0.metricsToken = token
            $0.queueDepthInterval = .milliseconds(50)
        }
        let client = SocketClient(port: server.port)
        let missing = try await Self.scrape(client)
        #expect(missing.status == 401 && missing.errorCode == "missing_key", "\(missing.text)")
        for wrong in [String(token.dropLast()), token + "0", Harness.adminKey, ""] {
            let refused = try await client.request("GET", "/metrics", key: nil, body: nil, headers: ["Authorization": "Bearer " + wrong])
            #expect(refused.status == 401 && refused.errorCode == "invalid_key", "\(wrong): \(refused.text)")
            #expect(!refused.text.contains("notibase_"))
        }
        #expect(try await client.request("GET", "/metrics", key: nil, body: nil, headers: ["Authorization": token]).status == 401)
        #expect(try await client.request("GET", "/healthz", key: nil).status == 200)  // health stays open
        let answered = try await Self.scrape(client, key: token)
        #expect(answered.status == 200 && answered.text.contains("notibase_http_requests_total"))
        // The server's own probe measured the (empty) queue.
        try await Self.waitForDepth(0, client, key: token)
        await server.shutdown()
        _ = directory
    }

    @Test func withoutATokenMetricsIsOpen() async throws {
        let (server, directory) = try await InProcessServer.start()
        #expect(try await Self.scrape(SocketClient(port: server.port)).status == 200)
        await server.shutdown()
        _ = directory
    }
}
