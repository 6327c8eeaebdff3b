import Foundation
import NotibaseCore
import NotibaseSenders
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

@Suite("Webhook dispatcher")
struct WebhookDispatcherTests {
    static let sale = #"{"message": {"title": "Sale", "buttons": [{"id": "buy", "text": "Buy"}]}, "audience": {"all": true}}"#
    static let url = "https://hooks.example.com/notibase"

    func receipt(_ harness: Harness, _ id: String, _ delivery: String, event: String, extra: String = "") -> String {
        let signature = harness.signer.receiptSignature(deliveryID: delivery)
        return #"{"id": "\#(id)", "deliveryId": "\#(delivery)", "event": "\#(event)", "occurredAt": "2027-01-15T08:00:00Z", "signature": "\#(signature)"\#(extra)}"#
    }

    /// Device 2's token is dead (failed, and the device deactivated); device 3's first try is
    /// retried (and then received); device 1's delivery is rendered, opened, tapped and dismissed.
    static func sender() -> ScriptedSender {
        let retried = Mutex(false)
        return ScriptedSender { push in
            if push.request.deviceToken == Harness.token(2) { return SendOutcome(disposition: .deactivateDevice, status: 410, providerReason: "Unregistered") }
            if push.request.deviceToken == Harness.token(3), retried.withLock({ done in defer { done = true }; return !done }) {
                return SendOutcome(disposition: .retry, status: 503, providerReason: "ServiceUnavailable")
            }
            return .sent(providerID: "p-" + push.deliveryID)
        }
    }

    @Test func everyEventTypeArrivesOnceInOrderSigned() async throws {
        let fixture = try await WebhookFixture(sender: Self.sender())
        let harness = fixture.harness
        let app = try await harness.createApp()
        let endpoint = try await fixture.endpoint(app, Self.url)
        let dispatcher = try fixture.dispatcher()
        let devices = [try await harness.registerDevice(app, number: 1), try await harness.registerDevice(app, number: 2), try await harness.registerDevice(app, number: 3)]
        let message = try await harness.send(app, Self.sale)
        try await harness.deliverDue()
        harness.advance(120)
        try await harness.deliverDue()
        let delivery = try #require(await harness.request("GET", "/v1/devices/\(devices[0])/deliveries", key: app.serverKey)["items"][0]["id"].string)
        for (id, event, extra) in [("r1", "rendered", #", "render": {"buttons": ["buy"], "imageAttached": false, "completion": "complete", "elapsedMilliseconds": 3}"#),
                                   ("r2", "opened", ""), ("r3", "action", #", "actionId": "buy""#), ("r4", "dismissed", "")] {
            #expect(await harness.request("POST", "/v1/receipts", key: app.clientKey, body: receipt(harness, id, delivery, event: event, extra: extra)).status == 202)
        }
        // Device 3's app reports its delivery as a background push's: received.
        let third = try #require(await harness.request("GET", "/v1/devices/\(devices[2])/deliveries", key: app.serverKey)["items"][0]["id"].string)
        #expect(await harness.request("POST", "/v1/receipts", key: app.clientKey, body: receipt(harness, "r5", third, event: "received")).status == 202)
        let later = Timestamp.format(harness.time.now.addingTimeInterval(600))
        let cancelled = try await harness.send(app, #"{"message": {"title": "Later"}, "audience": {"all": true}, "sendAt": "\#(later)"}"#)
        #expect(await harness.request("POST", "/v1/messages/\(cancelled)/cancel", key: app.serverKey).status == 200)
        let failed = try await harness.send(app, #"{"message": {"title": "Later"}, "audience": {"all": true}, "sendAt": "\#(later)"}"#)
        let failedSeq = try #require(try await harness.store.message(appID: app.id, id: failed)?.seq)
        #expect(try await harness.store.markFailed(seq: failedSeq, reason: "test", now: harness.time.wallClock.milliseconds()))
        #expect(await harness.request("POST", "/v1/webhooks/\(endpoint.id)/test", key: app.serverKey).status == 202)
        while try await fixture.runOnce(dispatcher) > 0 {}

        let batches = try fixture.batches(to: Self.url)
        #expect(!batches.isEmpty)
        for batch in batches {
            #expect(try batch.verifies(with: endpoint.secret))
            #expect(batch.json["type"].string == WebhookBatchBody.type && batch.id.hasPrefix("msg_"))
        }
        // Nothing was retried here, so nothing came twice.
        let all = batches.flatMap(\.events)
        #expect(Set(all.map { $0["id"].string ?? "" }).count == all.count)
        let types = all.map { $0["type"].string ?? "" }
        #expect(Set(types) == Set(WebhookEventType.all), "missing: \(Set(WebhookEventType.all).subtracting(types))")
        // One delivery's events in the order they happened, after its message was created.
        let first = all.filter { $0["data"]["deliveryId"].string == delivery }.map { $0["type"].string ?? "" }
        #expect(first == ["delivery.sent", "delivery.rendered", "delivery.opened", "delivery.action", "delivery.dismissed"])
        let created = try #require(types.firstIndex(of: "message.created"))
        #expect(types.firstIndex(of: "delivery.sent").map { $0 > created } == true)
        #expect(types.filter { $0 == "device.registered" }.count == 3)
        // What the events name.
        let action = try #require(all.first { $0["type"].string == "delivery.action" })
        #expect(action["data"]["details"]["actionId"].string == "buy" && action["data"]["messageId"].string == message)
        #expect(action["data"]["deviceId"].string == devices[0] && action["data"]["appId"].string == app.id)
        let deactivated = try #require(all.first { $0["type"].string == "device.deactivated" })
        #expect(deactivated["data"]["deviceId"].string == devices[1] && deactivated["data"]["reason"].string != nil)
        let rendered = try #require(all.first { $0["type"].string == "delivery.rendered" })
        #expect(rendered["data"]["details"]["render"]["buttons"].array.count == 1)
        #expect(all.first { $0["type"].string == "message.failed" }?["data"]["reason"].string == "test")
        #expect(all.first { $0["type"].string == "delivery.failed" }?["data"]["details"]["providerReason"].string == "Unregistered")
    }

    @Test func aBatchWaitsUntilFullOrItsFirstEventIsAWaitOld() async throws {
        let fixture = try await WebhookFixture()
        let app = try await fixture.harness.createApp()
        _ = try await fixture.endpoint(app, Self.url)
        let dispatcher = try fixture.dispatcher(batchSize: 3, batchWait: .seconds(1))
        try await fixture.harness.registerDevice(app, number: 1)
        try await fixture.runOnce(dispatcher)
        #expect(fixture.transport.requests.isEmpty)
        fixture.harness.advance(1)
        try await fixture.runOnce(dispatcher)
        #expect(try fixture.batches(to: Self.url).map(\.types) == [["device.registered"]])
        // Three at once: a full batch goes at once, the fourth waits for its own.
        for number in 2...5 { try await fixture.harness.registerDevice(app, number: number) }
        try await fixture.runOnce(dispatcher)
        #expect(try fixture.batches(to: Self.url).map(\.events.count) == [1, 3])
    }

    /// `/metrics` counts the requests to endpoints by outcome, never by endpoint (which tenants
    /// choose), their latency, and the events endpoints took (2xx only).
    @Test func metricsCountRequestsByOutcomeAndTheEventsTaken() async throws {
        let fixture = try await WebhookFixture()
        let harness = fixture.harness
        let app = try await harness.createApp()
        _ = try await fixture.endpoint(app, Self.url)
        let dispatcher = try fixture.dispatcher(batchSize: 2, metrics: harness.metrics)
        fixture.transport.answer(Self.url, [.answered(status: 503, retryAfter: nil), .timedOut, .failed(reason: "connection reset"), .answered(status: 302, retryAfter: nil)])
        for number in 1...3 { try await harness.registerDevice(app, number: number) }
        // The schedule's waits (jitter fixed at the middle): 5 s, 1 min, 5 min, 30 min.
        for wait in [0, 5, 60, 300, 1_800] as [TimeInterval] {
            harness.advance(wait)
            try await fixture.runOnce(dispatcher)
        }
        try await fixture.runOnce(dispatcher)
        #expect(try fixture.batches(to: Self.url).map(\.events.count) == [2, 2, 2, 2, 2, 1])
        let text = await harness.request("GET", "/metrics", key: nil).text
        for line in [
            #"notibase_webhook_requests_total{outcome="5xx"} 1"#, #"notibase_webhook_requests_total{outcome="timed_out"} 1"#,
            #"notibase_webhook_requests_total{outcome="failed"} 1"#, #"notibase_webhook_requests_total{outcome="3xx"} 1"#,
            #"notibase_webhook_requests_total{outcome="2xx"} 2"#, "notibase_webhook_events_delivered_total 3",
            #"notibase_webhook_request_duration_seconds_count{outcome="2xx"} 2"#, "notibase_webhook_requests_on_kept_connections_total 0",
        ] {
            #expect(text.contains("\n" + line + "\n"), "\(line)")
        }
        #expect(!text.contains("hooks.example.com"))
        #expect(Metrics.webhookOutcome(.answered(status: 101, retryAfter: nil)) == "other")
        #expect(Metrics.webhookOutcome(.refused(WebhookURLRefusal(reason: .forbiddenAddress, detail: "10.0.0.1"))) == "refused")
    }

    /// A million-device send is two thousand batches to each endpoint: after a batch is delivered
    /// the loop looks again at once. It waited for its interval between batches (200 ms in a
    /// server), so an endpoint got at most 2,500 events a second.
    @Test func aDeliveredBatchIsFollowedByTheNextWithoutWaitingForTheInterval() async throws {
        let fixture = try await WebhookFixture()
        let app = try await fixture.harness.createApp()
        _ = try await fixture.endpoint(app, Self.url)
        let dispatcher = try fixture.dispatcher(batchSize: 2)
        for number in 1...6 { try await fixture.harness.registerDevice(app, number: number) }
        try await WebhookFixture.settle(fixture.harness.store)
        let loop = Task { await dispatcher.run(interval: .seconds(3_600)) }
        defer { loop.cancel() }
        try await waitUntil(timeout: .seconds(30)) { (try? fixture.batches(to: Self.url).count) == 3 }
        #expect(try fixture.batches(to: Self.url).map(\.events.count) == [2, 2, 2])
    }

    /// An endpoint behind (more than a batch waiting, as during a large send) gets larger
    /// batches, in order, each event once; one that has caught up gets the usual size.
    @Test func anEndpointBehindGetsLargerBatchesUntilItCatchesUp() async throws {
        let fixture = try await WebhookFixture()
        let app = try await fixture.harness.createApp()
        _ = try await fixture.endpoint(app, Self.url)
        let dispatcher = try fixture.dispatcher(batchSize: 2, batchWait: .seconds(1), behindBatchSize: 5)
        for number in 1...7 { try await fixture.harness.registerDevice(app, number: number) }
        while try await fixture.runOnce(dispatcher) > 0 {}
        // Caught up: one event waits for others, as a batch that is not full does.
        try await fixture.harness.registerDevice(app, number: 8)
        try await fixture.runOnce(dispatcher)
        fixture.harness.advance(1)
        try await fixture.runOnce(dispatcher)
        #expect(try fixture.batches(to: Self.url).map(\.events.count) == [5, 2, 1])
        let received = try fixture.batches(to: Self.url).flatMap(\.events).map { $0["data"]["deviceId"].string ?? "" }
        let registered = try await fixture.harness.store.devices(appID: app.id, filter: DeviceFilter(), afterSeq: 0, limit: 10).map(\.id)
        #expect(received == registered)
    }

    /// An endpoint with full batches waiting gets them one after another in one lease, the
    /// fixing of each stored with the outcome of the one before, while the lease is young (a
    /// request's deadline since it was leased); then the lease ends and the next pass goes on.
    @Test func fullBatchesFollowEachOtherInOneLeaseWhileItIsYoung() async throws {
        let fixture = try await WebhookFixture()
        let app = try await fixture.harness.createApp()
        _ = try await fixture.endpoint(app, Self.url)
        let dispatcher = try fixture.dispatcher(batchSize: 2)
        for number in 1...9 { try await fixture.harness.registerDevice(app, number: number) }
        // Each request takes 4 s of the clock: after the third the lease is 12 s old, past the 10 s deadline.
        fixture.transport.whilePosting { [time = fixture.harness.time] in time.advance(seconds: 4) }
        try await fixture.runOnce(dispatcher)
        #expect(try fixture.batches(to: Self.url).map(\.events.count) == [2, 2, 2])
        // A lone event is not a full batch: it waits for its own pass.
        try await fixture.runOnce(dispatcher)
        #expect(try fixture.batches(to: Self.url).map(\.events.count) == [2, 2, 2, 2])
        try await fixture.runOnce(dispatcher)
        let batches = try fixture.batches(to: Self.url)
        #expect(batches.map(\.events.count) == [2, 2, 2, 2, 1] && Set(batches.map(\.id)).count == 5)
        let received = batches.flatMap(\.events).map { $0["data"]["deviceId"].string ?? "" }
        let registered = try await fixture.harness.store.devices(appID: app.id, filter: DeviceFilter(), afterSeq: 0, limit: 10).map(\.id)
        #expect(received == registered)
    }

    /// A batch grows past its usual size only while its body stays within the bound.
    @Test func aLargerBatchStaysWithinItsBytes() async throws {
        let fixture = try await WebhookFixture()
        let app = try await fixture.harness.createApp()
        let endpoint = try await fixture.endpoint(app, Self.url)
        for number in 1...6 { try await fixture.harness.registerDevice(app, number: number) }
        try await WebhookFixture.settle(fixture.harness.store)
        let events = try await fixture.harness.store.webhookEvents(appID: app.id, endpointID: endpoint.id, after: 0, through: nil, limit: 10)
        // Room for three of these events, not four.
        let bound = WebhookBatchBody.envelopeBytes + [events.prefix(3), events.suffix(3)].map { $0.reduce(0) { $0 + WebhookBatchBody.bytes(of: $1) } }.max()!
        let dispatcher = try fixture.dispatcher(batchSize: 2, behindBatchSize: 100, behindBatchBytes: bound)
        while try await fixture.runOnce(dispatcher) > 0 {}
        let batches = try fixture.batches(to: Self.url)
        #expect(batches.map(\.events.count) == [3, 3])
        #expect(batches.allSatisfy { $0.body.count <= bound })
        #expect(batches.flatMap(\.events).map { $0["id"].string ?? "" } == events.map(\.id))
    }

    /// A backlog is read once: the events read after a batch that its bytes ended make the next
    /// batch, not a read of them again (each read is 5,000 events made into text; a batch of a
    /// large send's, some 1,600).
    @Test func aBacklogIsReadOnceNotOncePerBatch() async throws {
        let fixture = try await WebhookFixture()
        let app = try await fixture.harness.createApp()
        let endpoint = try await fixture.endpoint(app, Self.url)
        for number in 1...12 { try await fixture.harness.registerDevice(app, number: number) }
        try await WebhookFixture.settle(fixture.harness.store)
        let events = try await fixture.harness.store.webhookEvents(appID: app.id, endpointID: endpoint.id, after: 0, through: nil, limit: 20)
        // Room for three of these events, not four.
        let sizes = (0...(events.count - 3)).map { events[$0..<($0 + 3)].reduce(0) { $0 + WebhookBatchBody.bytes(of: $1) } }
        let bound = WebhookBatchBody.envelopeBytes + sizes.max()!
        let dispatcher = try fixture.dispatcher(batchSize: 2, behindBatchSize: 100, behindBatchBytes: bound)
        try await fixture.runOnce(dispatcher)
        let batches = try fixture.batches(to: Self.url)
        #expect(batches.map(\.events.count) == [3, 3, 3, 3])
        #expect(batches.flatMap(\.events).map { $0["id"].string ?? "" } == events.map(\.id))
        // Twelve events in four batches: read afresh for each, 12 + 9 + 6 + 3.
        #expect(await dispatcher.eventsRead <= 2 * events.count)
    }

    /// What a body's bound counts is at least what the body takes.
    @Test func aBodyTakesNoMoreBytesThanItsEventsAndEnvelopeCount() throws {
        let events = (1...3).map { WebhookEventRecord(seq: $0, id: UUID().uuidString.lowercased(), type: "delivery.sent", at: 1_765_000_000_000 + $0, data: #"{"appId":"a\"b"}"#) }
        for count in 0...3 {
            let body = WebhookBatchBody.encode(Array(events.prefix(count)), at: 1_765_000_000_123)
            #expect(body.count <= WebhookBatchBody.envelopeBytes + events.prefix(count).reduce(0) { $0 + WebhookBatchBody.bytes(of: $1) })
            #expect(body.count >= WebhookBatchBody.envelopeBytes + events.prefix(count).reduce(0) { $0 + WebhookBatchBody.bytes(of: $1) } - 1)
        }
    }

    @Test func aFailedBatchIsSentAgainWithItsIDAndNothingOvertakesIt() async throws {
        let fixture = try await WebhookFixture()
        let app = try await fixture.harness.createApp()
        _ = try await fixture.endpoint(app, Self.url)
        let dispatcher = try fixture.dispatcher(batchSize: 2)
        fixture.transport.answer(Self.url, [.answered(status: 500, retryAfter: nil), .timedOut, .answered(status: 429, retryAfter: .seconds(400))])
        for number in 1...3 { try await fixture.harness.registerDevice(app, number: number) }
        try await fixture.runOnce(dispatcher)
        // Not due again before the schedule's 5 s, even with more to send.
        try await fixture.harness.registerDevice(app, number: 4)
        try await fixture.runOnce(dispatcher)
        #expect(fixture.transport.requests.count == 1)
        fixture.harness.advance(5)
        try await fixture.runOnce(dispatcher)
        #expect(fixture.transport.requests.count == 2)
        fixture.harness.advance(60)
        try await fixture.runOnce(dispatcher)
        #expect(fixture.transport.requests.count == 3)
        // The 429's Retry-After (400 s), longer than the schedule's next wait (5 min); a shorter
        // one would not shorten it (WebhookRetryPolicyTests).
        fixture.harness.advance(399)
        try await fixture.runOnce(dispatcher)
        #expect(fixture.transport.requests.count == 3)
        fixture.harness.advance(1)
        while try await fixture.runOnce(dispatcher) > 0 {}
        let batches = try fixture.batches(to: Self.url)
        #expect(batches.prefix(4).map(\.id) == Array(repeating: batches[0].id, count: 4))
        #expect(batches.count == 5 && batches[4].id != batches[0].id)
        let devices = batches.dropFirst(3).flatMap(\.events).map { $0["data"]["deviceId"].string ?? "" }
        let registered = try await fixture.harness.store.devices(appID: app.id, filter: DeviceFilter(), afterSeq: 0, limit: 10).map(\.id)
        #expect(devices == registered)
        let attempts = await fixture.harness.request("GET", "/v1/webhooks/\(try #require(fixture.harness.store.webhookEndpoints(appID: app.id, page: .after(0, limit: 1_000)).first?.id))/attempts", key: app.serverKey)["items"].array
        #expect(attempts.map { $0["outcome"].string ?? "" } == ["answered", "answered", "answered", "timed_out", "answered"])
        #expect(attempts.map { $0["status"].int } == [200, 200, 429, nil, 500])
        #expect(attempts[2]["nextRetryAt"].string != nil && attempts[0]["nextRetryAt"] == .null)
    }

    /// A batch in flight keeps its `webhook-id` when its endpoint's URL changes: made afresh, the
    /// same events went again under another ID, and a receiver deduplicating by ID, as the docs
    /// allow, took them twice (issue 43). The new URL is tried at once, not after the old one's wait.
    @Test func aBatchKeepsItsIDWhenTheURLChanges() async throws {
        let fixture = try await WebhookFixture()
        let app = try await fixture.harness.createApp()
        let endpoint = try await fixture.endpoint(app, Self.url)
        let dispatcher = try fixture.dispatcher()
        fixture.transport.answer(Self.url, [.timedOut])
        try await fixture.harness.registerDevice(app, number: 1)
        try await fixture.runOnce(dispatcher)
        let moved = "https://moved.example.com/hook"
        let changed = await fixture.harness.request("PATCH", "/v1/webhooks/\(endpoint.id)", key: app.serverKey, body: #"{"url": "\#(moved)"}"#)
        #expect(changed.status == 200, "\(changed.text)")
        #expect(changed["nextAttemptAt"] == .null)
        try await fixture.runOnce(dispatcher)
        let first = try #require(try fixture.batches(to: Self.url).first)
        let second = try #require(try fixture.batches(to: moved).first)
        #expect(second.id == first.id)
        #expect(second.events.map { $0["id"].string } == first.events.map { $0["id"].string })
    }

    @Test func aFinal4xxGivesTheBatchUpAfterAFewTriesAndSaysSo() async throws {
        let fixture = try await WebhookFixture()
        let app = try await fixture.harness.createApp()
        let endpoint = try await fixture.endpoint(app, Self.url)
        let dispatcher = try fixture.dispatcher(batchSize: 1)
        fixture.transport.answer(Self.url, Array(repeating: .answered(status: 400, retryAfter: nil), count: 3))
        try await fixture.harness.registerDevice(app, number: 1)
        try await fixture.harness.registerDevice(app, number: 2)
        for _ in 0..<4 {
            try await fixture.runOnce(dispatcher)
            fixture.harness.advance(3_600)
        }
        let batches = try fixture.batches(to: Self.url)
        #expect(batches.count == 4 && Set(batches.prefix(3).map(\.id)).count == 1 && batches[3].id != batches[0].id)
        #expect(batches[3].events[0]["data"]["deviceId"].string != batches[0].events[0]["data"]["deviceId"].string)
        let attempts = await fixture.harness.request("GET", "/v1/webhooks/\(endpoint.id)/attempts", key: app.serverKey)["items"].array
        #expect(attempts.map { $0["status"].int } == [200, 400, 400, 400])
    }

    @Test func anEndpointFailingForThreeDaysIsDisabledAndSaysWhy() async throws {
        let fixture = try await WebhookFixture()
        let app = try await fixture.harness.createApp()
        let endpoint = try await fixture.endpoint(app, Self.url)
        let dispatcher = try fixture.dispatcher()
        fixture.transport.answer(Self.url, Array(repeating: .answered(status: 503, retryAfter: nil), count: 1_000))
        try await fixture.harness.registerDevice(app, number: 1)
        try await fixture.runOnce(dispatcher)
        for _ in 0..<(3 * 24) {
            fixture.harness.advance(3_600)
            try await fixture.runOnce(dispatcher)
        }
        let before = fixture.transport.requests.count
        let shown = await fixture.harness.request("GET", "/v1/webhooks/\(endpoint.id)", key: app.serverKey)
        #expect(shown["enabled"].bool == false)
        #expect(shown["disabledReason"].string?.contains("503") == true)
        // The schedule's tries over three days, the last at three days.
        #expect(before >= 10 && before < 20)
        fixture.harness.advance(86_400)
        try await fixture.runOnce(dispatcher)
        #expect(fixture.transport.requests.count == before)
        // Enabled again, the batch it kept goes out.
        #expect(await fixture.harness.request("PATCH", "/v1/webhooks/\(endpoint.id)", key: app.serverKey, body: #"{"enabled": true}"#)["disabledReason"] == .null)
        fixture.transport.clear(Self.url)
        try await fixture.runOnce(dispatcher)
        #expect(try fixture.batches(to: Self.url).last?.types == ["device.registered"])
    }

    @Test func aDispatcherThatDiesMidBatchLeavesItToAnotherWithTheSameID() async throws {
        let fixture = try await WebhookFixture()
        let app = try await fixture.harness.createApp()
        _ = try await fixture.endpoint(app, Self.url)
        try await fixture.harness.registerDevice(app, number: 1)
        let store = fixture.harness.store
        // A node leases the endpoint, fixes its batch as the dispatcher does, and dies before sending it.
        try await WebhookFixture.settle(store)
        let now = fixture.harness.time.wallClock.milliseconds()
        let endpoint = try #require(try await store.leaseWebhookEndpoints(owner: "dead", now: now, until: now + 60_000, limit: 1, slots: 32).first)
        let events = try await store.webhookEvents(appID: app.id, endpointID: endpoint.id, after: endpoint.dispatch.cursor, through: nil, limit: 500)
        var fixed = endpoint.dispatch
        fixed.batchID = "msg_fixedbythedeadnode"
        fixed.batchLast = try #require(events.last?.seq)
        #expect(try await store.saveWebhookDispatch(endpointID: endpoint.id, owner: "dead", revision: endpoint.revision, fixed, attempt: nil, release: false, now: 0))
        try await fixture.harness.registerDevice(app, number: 2)
        let other = try fixture.dispatcher()
        try await fixture.runOnce(other)
        #expect(fixture.transport.requests.isEmpty, "the dead node's lease still runs")
        fixture.harness.advance(60)
        try await fixture.runOnce(other)
        try await fixture.runOnce(other)
        let batches = try fixture.batches(to: Self.url)
        #expect(batches.map(\.id).first == "msg_fixedbythedeadnode")
        #expect(batches.map(\.events.count) == [1, 1])
        #expect(batches.flatMap(\.types) == ["device.registered", "device.registered"])
    }

    @Test func aFailingEndpointDoesNotHoldUpAnotherAppsEndpoint() async throws {
        let fixture = try await WebhookFixture()
        let failing = try await fixture.harness.createApp("failing")
        let healthy = try await fixture.harness.createApp("healthy")
        _ = try await fixture.endpoint(failing, "https://down.example.com/")
        _ = try await fixture.endpoint(healthy, Self.url)
        fixture.transport.answer("https://down.example.com/", Array(repeating: .timedOut, count: 100))
        let dispatcher = try fixture.dispatcher()
        try await fixture.harness.registerDevice(failing, number: 1)
        try await fixture.harness.registerDevice(healthy, number: 2)
        try await fixture.runOnce(dispatcher)
        try await fixture.harness.registerDevice(healthy, number: 3)
        try await fixture.runOnce(dispatcher)
        #expect(try fixture.batches(to: Self.url).flatMap(\.types) == ["device.registered", "device.registered"])
        #expect(try fixture.events(at: Self.url).allSatisfy { $0["data"]["appId"].string == healthy.id })
        #expect(fixture.transport.requests(to: "https://down.example.com/").count == 1)
    }

    @Test func aRotatedSecretSignsBesideTheNewOneForADay() async throws {
        let fixture = try await WebhookFixture()
        let app = try await fixture.harness.createApp()
        let endpoint = try await fixture.endpoint(app, Self.url)
        let rotated = await fixture.harness.request("POST", "/v1/webhooks/\(endpoint.id)/rotate-secret", key: app.serverKey)
        let secret = try #require(rotated["secret"].string)
        let dispatcher = try fixture.dispatcher()
        try await fixture.harness.registerDevice(app, number: 1)
        try await fixture.runOnce(dispatcher)
        fixture.harness.advance(86_400)
        try await fixture.harness.registerDevice(app, number: 2)
        try await fixture.runOnce(dispatcher)
        let batches = try fixture.batches(to: Self.url)
        #expect(batches.count == 2)
        #expect(try batches[0].verifies(with: secret) && batches[0].verifies(with: endpoint.secret))
        #expect(try batches[1].verifies(with: secret) && !batches[1].verifies(with: endpoint.secret))
    }
}
