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
import Synchronization
@testable import NotibaseServerTestSupport

/// A batch's sends are written as one row of several events, in the transaction that records
/// them (docs/decisions/0037, "Sends in batches"): what a receiver relies on stays, each send one
/// event, in order, with an ID of its own that every read gives again, and a send rolled back no
/// event. Part of the webhook storage contract, on both backends.
extension WebhookStorageContractTests {
    /// An app with an endpoint, `devices` devices registered at 10, a message created at 20 and fanned out: its claimed deliveries.
    func sending(devices: Int) async throws -> (app: String, endpoint: String, message: Int, claimed: [ClaimedDelivery]) {
        let app = try await app("a")
        let endpoint = try await endpoint(app)
        try await register(app, 1...devices)
        let (message, claimed) = try await claimedMessage("m1", of: app)
        try #require(claimed.count == devices)
        return (app, endpoint.id, message.seq, claimed)
    }

    /// Message `id` of `app` to every device, created at 20 and fanned out: it and its claimed deliveries.
    func claimedMessage(_ id: String, of app: String) async throws -> (message: MessageRecord, claimed: [ClaimedDelivery]) {
        let (message, _) = try await store.createMessage(
            NewMessage(id: id, appID: app, content: MessageContent(message: Message(title: "T"), variants: nil), audience: .everyone, sendAt: 20,
                       audienceSize: 0, createdAt: 20), idempotencyKey: nil, window: 1_000)
        _ = try await store.fanOutBatch(messageSeq: message.seq, audience: .everyone, chooser: VariantChooser(locales: []), limit: 100, now: 30)
        return (message, try await store.claimDeliveries(now: 40, lease: 1_000, limit: 100).sorted { $0.seq < $1.seq })
    }

    func sent(_ deliveries: ArraySlice<ClaimedDelivery>) -> [DeliveryUpdate] {
        deliveries.map { DeliveryUpdate(seq: $0.seq, state: .sent, providerID: "p-\($0.id)") }
    }

    func events(_ app: String, _ endpoint: String, after: Int = 0, through: Int? = nil, limit: Int = 1_000) async throws -> [WebhookEventRecord] {
        try await store.webhookEvents(appID: app, endpointID: endpoint, after: after, through: through, limit: limit)
    }

    @Test func aBatchsSendsAreEventsInDeliveryOrderEachOnceWithIDsThatStay() async throws {
        let (app, endpoint, message, claimed) = try await sending(devices: 5)
        try await store.recordDeliveries(sent(claimed[0..<3]), messageSeqs: [message], now: 50)
        #expect(try await store.rowCount("webhook_outbox WHERE type = 'delivery.sent'") == 1, "a batch's sends are one outbox row")
        // Two of these were sent already: only the other two are events.
        try await store.recordDeliveries(sent(claimed[1..<5]), messageSeqs: [message], now: 60)
        // A pass reads at most its limit of events, but at least one row, however many it holds.
        while try await store.feedWebhookEvents(limit: 2) > 0 {}
        try await WebhookFixture.settle(store)
        let all = try await events(app, endpoint)
        #expect(all.map(\.type) == Array(repeating: "device.registered", count: 5) + ["message.created"]
            + Array(repeating: "delivery.sent", count: 5) + ["message.completed"])
        #expect(try await store.rowCount("webhook_events") == 9, "each batch's sends are one row of the stream")
        let sends = all.filter { $0.type == "delivery.sent" }
        #expect(sends.map(\.at) == [50, 50, 50, 60, 60])
        let data = try sends.map { try #require(StoredJSON.decode(WebhookEventData.self, $0.data)) }
        #expect(data.map(\.deliveryId) == claimed.map(\.id))
        #expect(data.map(\.details?.providerID) == claimed.map { "p-\($0.id)" })
        #expect(data.allSatisfy { $0.appId == app && $0.messageId == "m1" && $0.deviceId?.hasPrefix("a-dev-") == true && $0.platform == "ios" })
        #expect(Set(all.map(\.id)).count == all.count && all.allSatisfy { Identifier.isWellFormed($0.id) })
        #expect(all.map(\.seq) == all.map(\.seq).sorted() && Set(all.map(\.seq)).count == all.count)

        // Read in pieces, from inside a row, up to a bound inside another: the same events, the same IDs.
        for limit in [1, 2, 4] {
            var pieces: [WebhookEventRecord] = []
            while let next = try await events(app, endpoint, after: pieces.last?.seq ?? 0, limit: limit).nonEmpty {
                #expect(next.count <= limit)
                pieces += next
            }
            #expect(pieces == all)
        }
        #expect(try await events(app, endpoint, after: sends[0].seq, through: sends[3].seq) == Array(sends[1...3]))

        // A replay from the second batch starts at its first event.
        #expect(try await store.replayWebhookEvents(appID: app, id: endpoint, since: 60) == 3)
        #expect(try await store.webhookEndpoint(appID: app, id: endpoint)?.dispatch.cursor == sends[2].seq)
    }

    /// A send's `data`, written by hand in the send's transaction on SQLite, is the text the
    /// feed's encoder writes for the same event: keys sorted, nils left out, strings escaped alike.
    @Test(arguments: [nil, "p-1"], [nil, #"user "7"/\é"#])
    func aSendsDataIsWhatTheEncoderWrites(providerID: String?, externalUserID: String?) throws {
        for (deviceID, platform) in [(nil, nil), ("dev-1", "ios")] as [(String?, String?)] {
            let written = WebhookFeed.sentData(
                appID: "app-1", deliveryID: "del-1", providerID: providerID, deviceID: deviceID, externalUserID: externalUserID, messageID: "m1",
                platform: platform)
            let encoded = try StoredJSON.encode(WebhookEventData(
                appId: "app-1", messageId: "m1", deliveryId: "del-1", deviceId: deviceID, externalUserId: externalUserID, platform: platform,
                details: DeliveryEventDetail(providerID: providerID)))
            #expect(written == encoded)
        }
    }

    /// A pass says how many events it took, not rows: the dispatcher feeds again while a pass was
    /// full, and a row of a thousand sends counted as one left the stream behind a large send.
    @Test func aPassCountsTheEventsOfTheRowsItTook() async throws {
        let (app, endpoint, message, claimed) = try await sending(devices: 5)
        try await feedAll()
        // A test event waits to be fed: the sends after it wait in the outbox too (on SQLite they
        // would go straight into the stream otherwise).
        #expect(try await store.recordWebhookTest(appID: app, id: endpoint, now: 45))
        try await store.recordDeliveries(sent(claimed[0..<3]), messageSeqs: [message], now: 50)
        try await store.recordDeliveries(sent(claimed[3..<5]), messageSeqs: [message], now: 60)
        // A pass of three takes rows while it has fewer than three events: the test event and the
        // first row (three sends); the next, the second row (two) and the completion. (On
        // PostgreSQL a pass takes only transactions older than every one still running in the
        // cluster: beside other tests' transactions it may take fewer rows at a time.)
        var looked: [Int] = []
        for _ in 0..<2_000 where looked.reduce(0, +) < 7 {
            let count = try await store.feedWebhookEvents(limit: 3)
            if count > 0 { looked.append(count) } else { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(looked.reduce(0, +) == 7, "the passes counted \(looked), not the seven events")
        #expect(looked.allSatisfy { $0 <= 4 })
        #expect(TestDatabase.isPostgres || looked == [4, 3])
    }

    /// While the feed has taken everything before them, a batch's sends go straight into the
    /// stream on SQLite (no outbox row, no feed pass to wait for); behind anything not fed yet
    /// (here a retry's history entry in the same batch, then a test event) they wait their turn
    /// in the outbox. Either way, on both backends, the stream keeps the order of the commits,
    /// each event once.
    @Test func sendsKeepTheirPlaceWhetherOrNotTheFeedHasCaughtUp() async throws {
        let (app, endpoint, message, claimed) = try await sending(devices: 6)
        try await feedAll()
        try await store.recordDeliveries(sent(claimed[0..<2]), messageSeqs: [message], now: 50)
        if !TestDatabase.isPostgres {
            #expect(try await store.rowCount("webhook_outbox") == 0, "the sends went straight into the stream")
            #expect(try await events(app, endpoint).map(\.type).suffix(3) == ["message.created", "delivery.sent", "delivery.sent"], "before any feed pass")
        }
        let retry = DeliveryUpdate(seq: claimed[2].seq, state: .retrying, dueAt: 1_000, detail: DeliveryEventDetail())
        try await store.recordDeliveries([retry] + sent(claimed[3..<4]), messageSeqs: [message], now: 60)
        #expect(try await store.recordWebhookTest(appID: app, id: endpoint, now: 65))
        try await store.recordDeliveries(sent(claimed[4..<6]), messageSeqs: [message], now: 70)
        try await store.recordDeliveries(sent(claimed[2..<3]), messageSeqs: [message], now: 80)
        try await feedAll()
        let all = try await events(app, endpoint)
        #expect(all.map(\.type) == Array(repeating: "device.registered", count: 6) + ["message.created", "delivery.sent", "delivery.sent",
            "delivery.retrying", "delivery.sent", "webhook.test", "delivery.sent", "delivery.sent", "delivery.sent", "message.completed"])
        #expect(all.map(\.at).suffix(9) == [50, 50, 60, 60, 65, 70, 70, 80, 80])
        let sends = try all.filter { $0.type == "delivery.sent" }.map { try #require(StoredJSON.decode(WebhookEventData.self, $0.data)).deliveryId }
        #expect(sends == [0, 1, 3, 4, 5, 2].map { claimed[$0].id })
        #expect(Set(all.map(\.id)).count == all.count && all.map(\.seq) == all.map(\.seq).sorted())
    }

    /// A send's event names the app, the message, the delivery, the device and its user, and the
    /// provider's ID from the update or, when it has none, the one an earlier attempt stored; and
    /// only an app with an endpoint has events, though its sends share a batch with another's.
    /// SQLite reads what the event names with the claim, and the worker's update carries it to the
    /// record, which renders it without a read (``ClaimedDelivery/sendFacts``).
    @Test func aSendsEventNamesWhatItsClaimReadAndOnlyAnAppWithAnEndpointHasOne() async throws {
        let a = try await app("a")
        let endpoint = try await endpoint(a)
        let b = try await app("b")
        for app in [a, b] {
            _ = try await store.registerDevices(
                appID: app, (1...2).map { (DeviceUpsert(platform: .ios, token: "\(app)\($0)" + String(repeating: "0", count: 62), externalUserID: "\(app)-user-\($0)"), newID: "\(app)-dev-\($0)") },
                now: 10)
            let (message, _) = try await store.createMessage(
                NewMessage(id: "\(app)-m", appID: app, content: MessageContent(message: Message(title: "T"), variants: nil), audience: .everyone, sendAt: 20,
                           audienceSize: 0, createdAt: 20), idempotencyKey: nil, window: 1_000)
            _ = try await store.fanOutBatch(messageSeq: message.seq, audience: .everyone, chooser: VariantChooser(locales: []), limit: 100, now: 30)
        }
        var claimed = try await store.claimDeliveries(now: 40, lease: 1_000, limit: 100).sorted { $0.seq < $1.seq }
        try #require(claimed.count == 4)
        // The first of app a's is tried once, and its provider's ID stored, before it is sent.
        try await store.recordDeliveries(
            [DeliveryUpdate(seq: claimed[0].seq, state: .retrying, dueAt: 45, providerID: "p-old", detail: DeliveryEventDetail())],
            messageSeqs: [claimed[0].messageSeq], now: 41)
        claimed[0] = try #require(try await store.claimDeliveries(now: 50, lease: 1_000, limit: 100).first)
        if !TestDatabase.isPostgres {
            #expect(claimed[0..<2].allSatisfy { $0.sendFacts != nil }, "read with the claim for an app with an endpoint")
            #expect(claimed[2..<4].allSatisfy { $0.sendFacts == nil && $0.appWithoutEndpoint == b }, "and only for such an app")
            #expect(claimed[0].sendFacts?.storedProviderID == "p-old")
        }
        let sends = claimed.enumerated().map { index, delivery in
            DeliveryUpdate(
                seq: delivery.seq, state: .sent, providerID: index == 0 ? nil : "p-\(delivery.id)", sendFacts: delivery.sendFacts,
                appWithoutEndpoint: delivery.appWithoutEndpoint)
        }
        // With the feed caught up, SQLite writes the sends' events straight into the stream.
        try await feedAll()
        try await store.recordDeliveries(sends, messageSeqs: Set(claimed.map(\.messageSeq)), now: 60)
        #expect(try await store.rowCount("webhook_events WHERE app_id = 'b'") + store.rowCount("webhook_outbox WHERE app_id = 'b'") == 0)
        try await feedAll()
        let data = try await events(a, endpoint.id).filter { $0.type == "delivery.sent" }.map { try #require(StoredJSON.decode(WebhookEventData.self, $0.data)) }
        // App a's message was fanned out first.
        let ofA = Array(claimed[0..<2])
        try #require(ofA[1].messageSeq == ofA[0].messageSeq && claimed[2].messageSeq != ofA[0].messageSeq)
        #expect(data.map(\.deliveryId) == ofA.map(\.id))
        #expect(data.map(\.details?.providerID) == ["p-old", "p-\(ofA[1].id)"])
        #expect(data.map(\.deviceId) == ["a-dev-1", "a-dev-2"])
        #expect(data.map(\.externalUserId) == ["a-user-1", "a-user-2"])
        #expect(data.allSatisfy { $0.appId == a && $0.messageId == "a-m" && $0.platform == "ios" })
        #expect(try await store.rowCount("webhook_events WHERE app_id = 'b'") == 0)
        #expect(try await store.rowCount("webhook_outbox WHERE app_id = 'b'") == 0)
    }

    /// A send claimed while its app had no endpoint (another app had one) is still an event when
    /// the app's first endpoint is made before the send is recorded: nothing made from then on
    /// is lost, whatever the claim read.
    @Test func aSendClaimedBeforeItsAppsFirstEndpointIsStillAnEvent() async throws {
        let a = try await app("a")
        _ = try await endpoint(a)
        let b = try await app("b")
        try await register(b, 1...2)
        let (message, claimed) = try await claimedMessage("b-m", of: b)
        try #require(claimed.count == 2)
        let endpoint = try await endpoint(b)
        try await store.recordDeliveries(
            claimed.map { DeliveryUpdate(seq: $0.seq, state: .sent, providerID: "p-\($0.id)", sendFacts: $0.sendFacts, appWithoutEndpoint: $0.appWithoutEndpoint) },
            messageSeqs: [message.seq], now: 50)
        try await feedAll()
        let sends = try await events(b, endpoint.id).filter { $0.type == "delivery.sent" }
        #expect(try sends.map { try #require(StoredJSON.decode(WebhookEventData.self, $0.data)).deliveryId } == claimed.map(\.id))
    }

    /// Deliveries a fan-out batch hands its own node carry what their events name too, read with
    /// the batch's devices (``ClaimedDelivery/sendFacts``): their events name each device and its
    /// user, as a claim's do.
    @Test func aFanOutBatchsOwnSendsNameTheirDevicesAndUsers() async throws {
        let app = try await app("a")
        let endpoint = try await endpoint(app)
        _ = try await store.registerDevices(
            appID: app, (1...3).map { (DeviceUpsert(platform: .ios, token: String(format: "%064x", $0), externalUserID: "user-\($0)"), newID: "a-dev-\($0)") },
            now: 10)
        let (message, _) = try await store.createMessage(
            NewMessage(id: "m1", appID: app, content: MessageContent(message: Message(title: "T"), variants: nil), audience: .everyone, sendAt: 20,
                       audienceSize: 0, createdAt: 20), idempotencyKey: nil, window: 1_000)
        let batch = try await store.fanOutBatch(
            messageSeq: message.seq, audience: .everyone, chooser: VariantChooser(locales: []), limit: 100, now: 30, claim: FanOutClaim(lease: 1_000, limit: 3))
        try #require(batch.claimed.count == 3)
        #expect(batch.claimed.allSatisfy { $0.sendFacts != nil }, "read with the batch")
        try await store.recordDeliveries(
            batch.claimed.map { DeliveryUpdate(seq: $0.seq, state: .sent, providerID: "p-\($0.id)", sendFacts: $0.sendFacts, appWithoutEndpoint: $0.appWithoutEndpoint) },
            messageSeqs: [message.seq], now: 50)
        try await feedAll()
        let data = try await events(app, endpoint.id).filter { $0.type == "delivery.sent" }.map { try #require(StoredJSON.decode(WebhookEventData.self, $0.data)) }
        #expect(data.map(\.deliveryId) == batch.claimed.map(\.id))
        #expect(data.map(\.deviceId) == ["a-dev-1", "a-dev-2", "a-dev-3"])
        #expect(data.map(\.externalUserId) == ["user-1", "user-2", "user-3"])
        #expect(data.map(\.details?.providerID) == batch.claimed.map { "p-\($0.id)" })
        #expect(data.allSatisfy { $0.appId == app && $0.messageId == "m1" && $0.platform == "ios" })
    }

    /// A tenant names its users as it likes (quotes, backslashes, commas, braces, a line's own
    /// marks, anything but a control character): each send is still one event naming exactly
    /// that user, whether the worker rendered its line from the claim or the record rendered it
    /// (on PostgreSQL also through the record's array of lines), and no text of a user's
    /// becomes an event or a field of its own.
    @Test func aUserIDOfAnyTextIsNamedAsItIsAndMakesNoEventOfItsOwn() async throws {
        let users = [#"u","platform":"android"}\n{"deliveryId":"forged"#, #"a\"b\\c,{d}~e"#, "null", "~", "é,\u{1F600}"]
        let app = try await app("a")
        let endpoint = try await endpoint(app)
        _ = try await store.registerDevices(
            appID: app, users.indices.map { (DeviceUpsert(platform: .ios, token: String(format: "%064x", $0 + 1), externalUserID: users[$0]), newID: "a-dev-\($0)") },
            now: 10)
        let (message, claimed) = try await claimedMessage("m1", of: app)
        try #require(claimed.count == users.count)
        // The first half with what the claim read, the rest without (rendered by the record).
        try await store.recordDeliveries(
            claimed.enumerated().map { index, delivery in
                DeliveryUpdate(seq: delivery.seq, state: .sent, providerID: "p-\(index)", sendFacts: index < 3 ? delivery.sendFacts : nil)
            },
            messageSeqs: [message.seq], now: 50)
        try await feedAll()
        let sends = try await events(app, endpoint.id).filter { $0.type == "delivery.sent" }
        #expect(sends.count == users.count)
        let data = try sends.map { try #require(StoredJSON.decode(WebhookEventData.self, $0.data)) }
        #expect(data.map(\.externalUserId) == users)
        #expect(data.map(\.deliveryId) == claimed.map(\.id))
        #expect(data.allSatisfy { $0.platform == "ios" && $0.messageId == "m1" })
        // And as a request's body carries them (each event written from its line, not from its
        // text): one event per send, each naming its user as it is.
        let body = WebhookBatchBody.encode(sends, at: 60)
        let sent = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        let posted = try #require((sent["data"] as? [String: Any])?["events"] as? [[String: Any]])
        #expect(posted.count == users.count)
        #expect(posted.map { ($0["data"] as? [String: Any])?["externalUserId"] as? String } == users)
        #expect(posted.map { ($0["data"] as? [String: Any])?["deliveryId"] as? String } == claimed.map(\.id))
    }

    /// A record that saw no endpoint anywhere renders nothing before its transaction; an endpoint
    /// made between that look and the transaction (on PostgreSQL, by another node) still has the
    /// sends as events: the transaction reads them and renders them itself, in Swift.
    @Test func aSendRecordedAsTheFirstEndpointIsMadeIsStillAnEvent() async throws {
        /// As the store looked before the endpoint was made.
        func believeNoEndpoint() {
            if let sqlite = store as? SQLiteStore { sqlite.endpointsMayExist.store(false, ordering: .relaxed) }
            if let postgres = store as? PostgresStore { postgres.endpointsMayExist.store(false, ordering: .relaxed) }
        }
        let a = try await app("a")
        try await register(a, 1...2)
        believeNoEndpoint()
        let (message, claimed) = try await claimedMessage("a-m", of: a)
        try #require(claimed.count == 2 && claimed.allSatisfy { $0.sendFacts == nil && $0.appWithoutEndpoint == nil })
        let endpoint = try await endpoint(a)
        believeNoEndpoint()
        try await store.recordDeliveries(claimed.map { DeliveryUpdate(seq: $0.seq, state: .sent, providerID: "p-\($0.id)") }, messageSeqs: [message.seq], now: 50)
        try await feedAll()
        let sends = try await events(a, endpoint.id).filter { $0.type == "delivery.sent" }
        #expect(try sends.map { try #require(StoredJSON.decode(WebhookEventData.self, $0.data)).deliveryId } == claimed.map(\.id))
    }

    /// The batch's events are written in its transaction: when it fails (on SQLite the message's
    /// completion, its last statement; on PostgreSQL, which completes messages after the commit,
    /// a check run at the commit, once the sends' events are written), neither the sends nor
    /// their events remain.
    @Test func aSendRolledBackIsNoEvent() async throws {
        let (app, endpoint, message, claimed) = try await sending(devices: 2)
        if TestDatabase.isPostgres {
            try await store.runSQL(
                """
                CREATE FUNCTION refuse_completion() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$;
                CREATE CONSTRAINT TRIGGER refuse_completion AFTER UPDATE OF state ON deliveries DEFERRABLE INITIALLY DEFERRED
                    FOR EACH ROW WHEN (NEW.state = 'sent') EXECUTE FUNCTION refuse_completion();
                """)
        } else {
            try await store.runSQL(
                "CREATE TRIGGER refuse_completion BEFORE UPDATE OF state ON messages WHEN NEW.state = 'completed' BEGIN SELECT RAISE(ABORT, 'refused'); END")
        }
        await #expect(throws: (any Error).self) {
            try await self.store.recordDeliveries(self.sent(claimed[...]), messageSeqs: [message], now: 50)
        }
        try await WebhookFixture.settle(store)
        #expect(try await events(app, endpoint).map(\.type) == ["device.registered", "device.registered", "message.created"])

        try await store.runSQL("DROP TRIGGER refuse_completion" + (TestDatabase.isPostgres ? " ON deliveries" : ""))
        try await store.recordDeliveries(sent(claimed[...]), messageSeqs: [message], now: 60)
        try await WebhookFixture.settle(store)
        let all = try await events(app, endpoint)
        #expect(all.map(\.type) == ["device.registered", "device.registered", "message.created", "delivery.sent", "delivery.sent", "message.completed"])
        #expect(all.filter { $0.type == "delivery.sent" }.map(\.at) == [60, 60])
    }

    /// PostgreSQL numbers a transaction when it first writes, and the stream follows those
    /// numbers. A batch numbered first (here held at a locked delivery) and committing after a
    /// later one must not complete the message inside its transaction, counting the later
    /// batch's sends as done: its `message.completed` would come before those sends. Every send
    /// comes before the message's end, whichever batch commits last.
    @Test(.enabled(if: TestDatabase.isPostgres)) func theMessagesEndComesAfterEverySendWhicheverBatchCommitsLast() async throws {
        let (app, endpoint, message, claimed) = try await sending(devices: 3)
        let url = try #require(opened.url)
        let holder = try PostgresConnection(url: url), watcher = try PostgresConnection(url: url)
        try holder.execute("BEGIN")
        _ = try holder.query("SELECT 1 FROM deliveries WHERE seq = $1 FOR UPDATE", [.int(claimed[1].seq)])
        // The first batch writes its first send (and takes its number), then waits at the second's row.
        let first = Task { try await self.store.recordDeliveries(self.sent(claimed[0...1]), messageSeqs: [message], now: 50) }
        let deadline = ContinuousClock.now + .seconds(30)
        while try watcher.query("SELECT count(*) FROM pg_locks WHERE NOT granted").first({ $0.int(0) }) == 0 {
            try #require(ContinuousClock.now < deadline, "the first batch never waited at the locked row")
            try await Task.sleep(for: .milliseconds(10))
        }
        try await store.recordDeliveries(sent(claimed[2...2]), messageSeqs: [message], now: 60)
        try holder.execute("COMMIT")
        try await first.value
        try await WebhookFixture.settle(store)
        let all = try await events(app, endpoint)
        #expect(all.map(\.type) == Array(repeating: "device.registered", count: 3) + ["message.created"]
            + Array(repeating: "delivery.sent", count: 3) + ["message.completed"])
        #expect(try await store.message(appID: app, id: "m1")?.state == .completed)
    }
}

private extension Array {
    var nonEmpty: Self? { isEmpty ? nil : self }
}
