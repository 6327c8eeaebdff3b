import Foundation
import NotibaseCore
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

/// What every backend guarantees the webhooks (docs/decisions/0037): run on SQLite and again on
/// PostgreSQL (`NOTIBASE_TEST_DATABASE_URL`), as the storage contract is.
@Suite("Webhook storage contract")
final class WebhookStorageContractTests: Sendable {
    let directory: TemporaryDirectory
    let opened: TestDatabase.Opened
    var store: any Storage & RowCounting { opened.store }

    init() async throws {
        directory = TemporaryDirectory()
        opened = try await TestDatabase.open(directory: directory.path, busyTimeout: 5_000)
    }

    deinit { opened.finish() }

    func app(_ id: String) async throws -> String {
        _ = try await store.createApp(
            id: id, name: id, serverKeyHash: Array("s-\(id)".utf8), clientKeyHash: Array("c-\(id)".utf8), requireIdentityVerification: false, now: 1)
        return id
    }

    func endpoint(_ app: String, _ id: String = "e1") async throws -> WebhookEndpointRecord {
        try await store.createWebhookEndpoint(NewWebhookEndpoint(id: "\(app)-\(id)", appID: app, url: "https://x.example/\(id)", types: nil, sealedSecret: [1, 2, 3], now: 5, limit: 100))!
    }

    func register(_ app: String, _ numbers: ClosedRange<Int>, now: Int = 10) async throws {
        let registrations = numbers.map { (DeviceUpsert(platform: .ios, token: String(format: "%064x", $0)), newID: "\(app)-dev-\($0)") }
        _ = try await store.registerDevices(appID: app, registrations, now: now)
    }

    func stream(_ app: String, _ endpoint: String, after: Int = 0) async throws -> [WebhookEventRecord] {
        try await store.webhookEvents(appID: app, endpointID: endpoint, after: after, through: nil, limit: 1_000)
    }

    /// Feeds everything committed (``WebhookFixture/settle(_:)``).
    func feedAll() async throws {
        try await WebhookFixture.settle(store)
    }

    @Test func changesAreEventsInTheOrderTheyCommittedWhateverTheFeedsSize() async throws {
        let app = try await app("a")
        let endpoint = try await endpoint(app)
        try await register(app, 1...3)
        let (message, _) = try await store.createMessage(
            NewMessage(id: "m1", appID: app, content: MessageContent(message: Message(title: "T"), variants: nil), audience: .everyone, sendAt: 1_000,
                       audienceSize: 0, createdAt: 20), idempotencyKey: nil, window: 1_000)
        #expect(try await store.markCancelled(appID: app, id: message.id, now: 30) != nil)
        #expect(try await store.recordWebhookTest(appID: app, id: endpoint.id, now: 40))
        // One row at a time, the merge keeps the order.
        while try await store.feedWebhookEvents(limit: 1) > 0 {}
        try await feedAll()
        let events = try await stream(app, endpoint.id)
        #expect(events.map(\.type) == ["device.registered", "device.registered", "device.registered", "message.created", "message.cancelled", "webhook.test"])
        #expect(events.map(\.at) == [10, 10, 10, 20, 30, 40])
        let data = try #require(StoredJSON.decode(WebhookEventData.self, events[4].data))
        #expect(data.messageId == "m1" && data.appId == app)
        #expect(try await store.feedWebhookEvents(limit: 10) == 0)
    }

    /// The history (a deleted device's delivery fails) and the outbox (registrations, the message) interleave: read one row of
    /// each at a time, the feed still takes them in the order they committed.
    @Test func theHistoryAndTheOutboxInterleaveInCommitOrder() async throws {
        let app = try await app("a")
        let endpoint = try await endpoint(app)
        try await register(app, 1...2)
        let (message, _) = try await store.createMessage(
            NewMessage(id: "m1", appID: app, content: MessageContent(message: Message(title: "T"), variants: nil), audience: .everyone, sendAt: 15,
                       audienceSize: 0, createdAt: 15), idempotencyKey: nil, window: 1_000)
        _ = try await store.fanOutBatch(messageSeq: message.seq, audience: .everyone, chooser: VariantChooser(locales: []), limit: 10, now: 16)
        #expect(try await store.deleteDevice(appID: app, id: "a-dev-1", now: 20))
        try await register(app, 3...3, now: 30)
        #expect(try await store.deleteDevice(appID: app, id: "a-dev-2", now: 40))
        while try await store.feedWebhookEvents(limit: 1) > 0 {}
        try await feedAll()
        let events = try await stream(app, endpoint.id)
        #expect(events.map(\.type) == [
            "device.registered", "device.registered", "message.created", "delivery.failed", "device.registered", "delivery.failed", "message.completed",
        ])
        // The last delivery's failure completes the message, in the same transaction: the history first.
        #expect(events.map(\.at) == [10, 10, 15, 20, 30, 40, 40])
    }

    @Test func anAppWithoutAnEndpointHasNoStream() async throws {
        let quiet = try await app("q")
        let other = try await app("o")
        try await register(quiet, 1...2)
        let endpoint = try await endpoint(other)
        try await register(other, 3...3)
        try await feedAll()
        #expect(try await store.rowCount("webhook_events") == 1)
        #expect(try await stream(other, endpoint.id).map(\.type) == ["device.registered"])
    }

    /// What happened before the first endpoint is no event: the feed stands still without one and
    /// the first endpoint moves it to the end of the history.
    @Test func theFirstEndpointStartsAfterTheHistoryBeforeIt() async throws {
        let app = try await app("a")
        try await register(app, 1...1)
        let (message, _) = try await store.createMessage(
            NewMessage(id: "m1", appID: app, content: MessageContent(message: Message(title: "T"), variants: nil), audience: .everyone, sendAt: 15,
                       audienceSize: 0, createdAt: 15), idempotencyKey: nil, window: 1_000)
        _ = try await store.fanOutBatch(messageSeq: message.seq, audience: .everyone, chooser: VariantChooser(locales: []), limit: 10, now: 16)
        #expect(try await store.deleteDevice(appID: app, id: "a-dev-1", now: 20))
        #expect(try await store.feedWebhookEvents(limit: 100) == 0)
        let endpoint = try await endpoint(app)
        try await register(app, 2...2, now: 30)
        try await feedAll()
        #expect(try await stream(app, endpoint.id).map(\.type) == ["device.registered"])
        // Deleted, its app's waiting outbox rows go too.
        try await register(app, 3...3, now: 40)
        #expect(try await store.deleteWebhookEndpoint(appID: app, id: endpoint.id))
        #expect(try await store.rowCount("webhook_outbox") == 0)
    }

    @Test func anEndpointIsItsAppsAlone() async throws {
        let owner = try await app("a")
        let stranger = try await app("b")
        let endpoint = try await endpoint(owner)
        #expect(try await store.webhookEndpoint(appID: stranger, id: endpoint.id) == nil)
        #expect(try await store.webhookEndpoints(appID: stranger, page: .after(0, limit: 1_000)).isEmpty)
        #expect(try await store.updateWebhookEndpoint(appID: stranger, id: endpoint.id, WebhookEndpointChange(enabled: false), now: 9) == nil)
        #expect(try await store.rotateWebhookSecret(appID: stranger, id: endpoint.id, sealed: [9], previousUntil: 99, now: 9) == nil)
        #expect(try await !store.recordWebhookTest(appID: stranger, id: endpoint.id, now: 9))
        #expect(try await store.replayWebhookEvents(appID: stranger, id: endpoint.id, since: 0) == nil)
        #expect(try await store.webhookAttempts(appID: stranger, id: endpoint.id, limit: 10) == nil)
        #expect(try await !store.deleteWebhookEndpoint(appID: stranger, id: endpoint.id))
        #expect(try await store.webhookEndpoint(appID: owner, id: endpoint.id)?.dispatch.enabled == true)
    }

    @Test func aLeaseIsOneOwnersUntilItEnds() async throws {
        let app = try await app("a")
        let endpoint = try await endpoint(app)
        try await register(app, 1...1)
        try await feedAll()
        #expect(try await store.leaseWebhookEndpoints(owner: "n1", now: 100, until: 200, limit: 10, slots: 32).map(\.id) == [endpoint.id])
        #expect(try await store.leaseWebhookEndpoints(owner: "n2", now: 150, until: 250, limit: 10, slots: 32).isEmpty)
        // Another owner cannot write through it.
        var state = endpoint.dispatch
        state.cursor = 99
        #expect(try await !store.saveWebhookDispatch(endpointID: endpoint.id, owner: "n2", revision: endpoint.revision, state, attempt: nil, release: true, now: 0))
        #expect(try await store.leaseWebhookEndpoints(owner: "n2", now: 200, until: 300, limit: 10, slots: 32).map(\.id) == [endpoint.id])
    }

    @Test func aChangeByTheAPIWinsOverTheDispatcherThatHeldTheEndpoint() async throws {
        let app = try await app("a")
        _ = try await endpoint(app)
        try await register(app, 1...2)
        try await feedAll()
        let leased = try #require(try await store.leaseWebhookEndpoints(owner: "n1", now: 100, until: 200, limit: 1, slots: 32).first)
        let events = try await stream(app, leased.id)
        #expect(try await store.replayWebhookEvents(appID: app, id: leased.id, since: 0) == 2)
        var state = leased.dispatch
        state.cursor = try #require(events.last?.seq)
        let attempt = WebhookAttemptRecord(batchID: "msg_1", events: 2, at: 150, outcome: "answered", status: 200, latencyMilliseconds: 3, answer: "ok", nextRetryAt: nil)
        #expect(try await !store.saveWebhookDispatch(endpointID: leased.id, owner: "n1", revision: leased.revision, state, attempt: attempt, release: true, now: 0))
        // The attempt is in the log; the replay's cursor stands.
        #expect(try await store.webhookAttempts(appID: app, id: leased.id, limit: 10) == [attempt])
        #expect(try await store.webhookEndpoint(appID: app, id: leased.id)?.dispatch.cursor == (events.first?.seq ?? 0) - 1)
    }

    @Test func replayStartsAtTheFirstEventSinceATimeAndRetentionRemovesOldEvents() async throws {
        let app = try await app("a")
        let endpoint = try await endpoint(app)
        try await register(app, 1...1, now: 10)
        try await register(app, 2...2, now: 20)
        try await register(app, 3...3, now: 30)
        try await feedAll()
        let first = try #require(try await stream(app, endpoint.id).first)
        #expect(try await store.replayWebhookEvents(appID: app, id: endpoint.id, since: 20) == 2)
        #expect(try await store.webhookEndpoint(appID: app, id: endpoint.id)?.dispatch.cursor == first.seq)
        #expect(try await store.purgeWebhookEvents(before: 30, limit: 100) == 2)
        #expect(try await stream(app, endpoint.id).map(\.at) == [30])
    }

    @Test func theAttemptsLogKeepsTheNewest() async throws {
        let app = try await app("a")
        let endpoint = try await endpoint(app)
        for number in 0..<(WebhookSQL.attemptsKept + 5) {
            let attempt = WebhookAttemptRecord(batchID: "msg_\(number)", events: 1, at: number, outcome: "timed_out", status: nil, latencyMilliseconds: 1, answer: "", nextRetryAt: nil)
            _ = try await store.saveWebhookDispatch(endpointID: endpoint.id, owner: "n", revision: 0, endpoint.dispatch, attempt: attempt, release: true, now: 0)
        }
        let kept = try #require(try await store.webhookAttempts(appID: app, id: endpoint.id, limit: 1_000))
        #expect(kept.count == WebhookSQL.attemptsKept && kept.first?.batchID == "msg_\(WebhookSQL.attemptsKept + 4)")
    }

    /// PostgreSQL numbers rows before they commit: a device registered in a transaction that
    /// commits after a later one's must still reach the stream, and before it.
    @Test(.enabled(if: TestDatabase.isPostgres)) func aRowThatCommitsLateIsNotSkipped() async throws {
        let app = try await app("a")
        let endpoint = try await endpoint(app)
        let url = try #require(opened.url)
        let slow = try PostgresConnection(url: url)
        try slow.execute("BEGIN")
        try slow.run(
            "INSERT INTO devices (id, app_id, platform, token, created_at, updated_at) VALUES ('slow', $1, 'ios', 'aa', 11, 11)", [.text(app)])
        try await register(app, 2...2, now: 12)
        while try await store.feedWebhookEvents(limit: 1_000) > 0 {}
        #expect(try await stream(app, endpoint.id).isEmpty, "the later registration waits for the earlier transaction")
        try slow.execute("COMMIT")
        try await feedAll()
        #expect(try await stream(app, endpoint.id).map(\.at) == [11, 12])
    }
}
