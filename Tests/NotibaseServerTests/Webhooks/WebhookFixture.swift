import Foundation
import NotibaseCore
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

/// A harness, a recording transport, and dispatchers on the harness's clock (jitter fixed at the
/// middle: each wait is the schedule's).
struct WebhookFixture {
    let harness: Harness
    let transport: RecordingWebhookTransport

    init(sender: ScriptedSender = ScriptedSender()) async throws {
        let transport = RecordingWebhookTransport()
        self.transport = transport
        harness = try await Harness(sender: sender, webhookTransport: transport)
    }

    /// Batches of `batchSize` events, grown while more are waiting only to `behindBatchSize` and
    /// `behindBatchBytes` when a test gives them.
    func dispatcher(
        batchSize: Int = 500, batchWait: Duration = .zero, behindBatchSize: Int? = nil, behindBatchBytes: Int? = nil, metrics: Metrics? = nil
    ) throws -> WebhookDispatcher {
        var options = WebhookDispatcher.Options()
        options.batchSize = batchSize
        options.batchWait = batchWait
        options.behindBatchSize = behindBatchSize ?? batchSize
        options.behindBatchBytes = behindBatchBytes ?? options.behindBatchBytes
        return WebhookDispatcher(
            store: harness.store, transport: transport, box: try SecretBox(key: Harness.secretKey), clock: harness.time.wallClock, metrics: metrics,
            options: options, random: { 0.5 })
    }

    /// A new endpoint of `app` through the API: its ID and its secret.
    func endpoint(_ app: TestApp, _ url: String, types: [String]? = nil) async throws -> (id: String, secret: String) {
        let types = types.map { #", "types": [\#($0.map { "\"\($0)\"" }.joined(separator: ", "))]"# } ?? ""
        let reply = await harness.request("POST", "/v1/webhooks", key: app.serverKey, body: #"{"url": "\#(url)"\#(types)}"#)
        guard reply.status == 201, let id = reply["id"].string, let secret = reply["secret"].string else {
            throw HarnessError("creating an endpoint answered \(reply.status): \(reply.text)")
        }
        return (id, secret)
    }

    /// Feeds until everything committed is in the stream: on PostgreSQL a transaction still open
    /// elsewhere (another test's) holds the feed back until it ends (docs/decisions/0037).
    static func settle(_ store: any Storage & RowCounting) async throws {
        while true {
            while try await store.feedWebhookEvents(limit: 1_000) > 0 {}
            var pending = try await store.rowCount("webhook_outbox")
            if TestDatabase.isPostgres {
                pending += try await store.rowCount(
                    "delivery_events e, webhook_feed f WHERE e.tx IS NOT NULL AND (e.tx, e.seq) > (f.event_tx, f.event_seq)")
            }
            if pending == 0 { return }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// One pass of `dispatcher` once everything committed is in the stream.
    @discardableResult
    func runOnce(_ dispatcher: WebhookDispatcher) async throws -> Int {
        try await Self.settle(harness.store)
        return try await dispatcher.runOnce()
    }

    /// Every batch sent to `url`, as received.
    func batches(to url: String) throws -> [ReceivedBatch] { try transport.requests(to: url).map(ReceivedBatch.init) }

    /// The events received at `url`, each once (by its ID), in the order they first came.
    func events(at url: String) throws -> [JSONValue] {
        var seen: Set<String> = []
        return try batches(to: url).flatMap(\.events).filter { seen.insert($0["id"].string ?? "").inserted }
    }
}
