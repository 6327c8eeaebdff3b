import Foundation
import NotibaseCore
import NotibaseSenders
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

/// One tenant cannot stop, slow or flood the others: limits are checked before anything is
/// stored, a message that cannot be read fails alone, fan-out takes turns, receipts are bounded.
@Suite("Tenant isolation")
struct TenantIsolationTests {
    static func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    /// On the first release a message whose data nested 509 levels was stored as "null", answered
    /// 500, and then made fan-out throw every 25 ms: no other app's message went out.
    @Test func deeplyNestedDataIsRefusedBeforeAnythingIsStored() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1)
        for depth in [33, 509] {
            let reply = await harness.request("POST", "/v1/messages", key: app.serverKey, body: #"{"message": {"title": "Hi", "data": {"deep": \#(Self.nested(depth))}}, "audience": {"all": true}}"#)
            #expect(reply.status == 400, "\(depth): \(reply.text.prefix(300))")
            #expect(reply["error"]["field"].string?.hasPrefix("message") == true)
        }
        #expect(await harness.request("GET", "/v1/messages", key: app.serverKey)["items"].array.isEmpty)
        let fine = await harness.request("POST", "/v1/messages", key: app.serverKey, body: #"{"message": {"title": "Hi", "data": {"deep": \#(Self.nested(32))}}, "audience": {"all": true}}"#)
        #expect(fine.status == 202)
    }

    /// A message whose stored content cannot be read is failed with the reason; the other apps'
    /// messages are fanned out in the same round, and its app's list still answers.
    @Test func anUnreadableMessageFailsAloneAndTheOthersGoOut() async throws {
        let sender = ScriptedSender()
        let harness = try await Harness(sender: sender)
        let bad = try await harness.createApp("Bad")
        let good = try await harness.createApp("Good")
        try await harness.registerDevice(bad, number: 1)
        try await harness.registerDevice(good, number: 2)
        let now = Int(harness.time.now.timeIntervalSince1970 * 1000)
        let (poison, _) = try await harness.store.createMessage(
            NewMessage(id: Identifier.make(milliseconds: now), appID: bad.id, content: MessageContent(message: Message(), variants: nil), audience: .everyone,
                       sendAt: now, audienceSize: 1, createdAt: now, storedContent: "null", storedAudience: #"{"all":true}"#),
            idempotencyKey: nil, window: 0)
        let message = try await harness.send(good, #"{"message": {"title": "Still delivered"}, "audience": {"all": true}}"#)

        try await harness.fanOut.runOnce()
        while try await harness.worker.runOnce() > 0 {}

        #expect(sender.pushes.map(\.request.deviceToken) == [Harness.token(2)])
        #expect(await harness.request("GET", "/v1/messages/\(message)", key: good.serverKey)["state"].string == "completed")
        let failed = await harness.request("GET", "/v1/messages/\(poison.id)", key: bad.serverKey)
        #expect(failed.status == 200 && failed["state"].string == "failed")
        #expect(failed["failureReason"].string?.contains("could not be read") == true)
        #expect(await harness.request("GET", "/v1/messages", key: bad.serverKey).status == 200)
        #expect(try await harness.store.messagesToFanOut(now: now + 1_000, limit: 10).isEmpty)
    }

    /// One app's ten large messages do not hold another app's one-device message: in the first
    /// round of fan-out every due message gets one batch, apps taking turns.
    @Test func fanOutTakesTurnsBetweenAppsAndMessages() async throws {
        let harness = try await Harness()
        let big = try await harness.createApp("Big")
        let small = try await harness.createApp("Small")
        let now = Int(harness.time.now.timeIntervalSince1970 * 1000)
        try await harness.registerDevices(3_000, in: big)
        var campaigns: [String] = []
        for number in 1...10 { campaigns.append(try await harness.send(big, #"{"message": {"title": "Campaign \#(number)"}, "audience": {"all": true}}"#)) }
        // More devices than a post writes itself (FanOut.atOnceAudience): the fan-out writes them.
        try await harness.registerDevices(150, in: small, first: 50_000)
        let reset = try await harness.send(small, #"{"message": {"title": "Your reset code"}, "audience": {"all": true}}"#)

        let fanOut = FanOut(store: harness.store, clock: WallClock { harness.time.now }, logger: .silent, metrics: Metrics(), batchSize: 1_000)
        let round = try await fanOut.runRound()
        #expect(round.unfinished == 10)
        #expect(round.written == 10 * 1_000 + 150)
        let resetDeliveries = await harness.request("GET", "/v1/messages/\(reset)/deliveries?limit=200", key: small.serverKey)["items"].array
        #expect(resetDeliveries.count == 150)
        for campaign in campaigns {
            #expect(await harness.request("GET", "/v1/messages/\(campaign)", key: big.serverKey)["state"].string == "fanningOut")
        }
        // The reset's delivery is among the first claimed: it was written in the first turns.
        let claimed = try await harness.store.claimDeliveries(now: now + 1, lease: 30_000, limit: 2_000)
        #expect(claimed.contains { $0.id == resetDeliveries[0]["id"].string })
        try await fanOut.runOnce()
    }

    /// A message posted while a large one is being fanned out gets its batch first in the next
    /// round: it waited for the large message's batch in progress and then for another one.
    /// (A smaller audience is written with the post itself: see the next test.)
    @Test func aMessageNotStartedGoesFirstInTheNextRound() async throws {
        let harness = try await Harness()
        let big = try await harness.createApp("Big")
        let small = try await harness.createApp("Small")
        try await harness.registerDevices(3_000, in: big)
        let campaign = try await harness.send(big, #"{"message": {"title": "Flash sale"}, "audience": {"all": true}}"#)
        let fanOut = FanOut(store: harness.store, clock: WallClock { harness.time.now }, logger: .silent, metrics: Metrics(), batchSize: 1_000)
        #expect(try await fanOut.runRound().written == 1_000)

        try await harness.registerDevices(150, in: small, first: 50_000)
        let reset = try await harness.send(small, #"{"message": {"title": "Weekly digest"}, "audience": {"all": true}}"#)
        #expect(try await fanOut.runRound().written == 1_150)
        let campaignSeq = try #require(try await harness.store.message(appID: big.id, id: campaign)).seq
        let resetSeq = try #require(try await harness.store.message(appID: small.id, id: reset)).seq
        let resetDeliveries = try await harness.store.deliveries(messageSeq: resetSeq, state: nil, afterSeq: 0, limit: 200)
        let campaignDeliveries = try await harness.store.deliveries(messageSeq: campaignSeq, state: nil, afterSeq: 0, limit: 3_000)
        #expect(resetDeliveries.count == 150 && campaignDeliveries.count == 2_000)
        let lastOfReset = try #require(resetDeliveries.map(\.seq).max())
        #expect(campaignDeliveries.filter { $0.seq > lastOfReset }.count == 1_000)
    }

    /// The fan-out writes claimed for this node's workers only what they have room for (the rest
    /// unclaimed, for any worker of any node), and a one-device message posted meanwhile is
    /// claimed on the store's next turn: after one handed-off batch, not after all of them.
    @Test func theFanOutHandsOverOnlyWhatTheWorkersHaveRoomFor() async throws {
        let harness = try await Harness()
        let big = try await harness.createApp("Big")
        let small = try await harness.createApp("Small")
        try await harness.registerDevices(3_000, in: big)
        _ = try await harness.send(big, #"{"message": {"title": "Flash sale"}, "audience": {"all": true}}"#)
        let handoff = Handoff(workers: 1, batchSize: 1_500)
        let fanOut = FanOut(
            store: harness.store, clock: WallClock { harness.time.now }, logger: .silent, metrics: Metrics(), batchSize: 1_000,
            handoff: (handoff, .seconds(30)))
        #expect(try await fanOut.runRound().written == 1_000)
        #expect(handoff.room == 500)
        #expect(try await fanOut.runRound().written == 1_000)
        #expect(handoff.room == 0)

        try await harness.registerDevices(1, in: small, first: 50_000)
        let reset = try await harness.send(small, #"{"message": {"title": "Your code"}, "audience": {"all": true}}"#)
        let resetSeq = try #require(try await harness.store.message(appID: small.id, id: reset)).seq
        // A worker's turns: a handed-off batch (the second fan-out batch's 500 joined the first
        // up to a worker's batch size), then the store's claim.
        #expect(handoff.take()?.deliveries.count == 1_500)
        #expect(handoff.take() == nil)
        let now = Int(harness.time.now.timeIntervalSince1970 * 1000)
        let claimed = try await harness.store.claimDeliveries(now: now + 1, lease: 30_000, limit: 1_000)
        #expect(claimed.contains { $0.messageSeq == resetSeq }, "the one-device message waited for more than one handed-off batch")
        // Due in the store: the 500 the handoff had no room for, and the reset; nothing more handed off.
        #expect(claimed.count == 501)
        #expect(handoff.takeAny() == nil)
    }

    /// A message to a few devices is written by the post that sends it, so it waits for no turn
    /// of the fan-out behind a large message's batch; a larger one is left to the fan-out.
    @Test func aSmallAudienceIsWrittenWithThePost() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let now = Int(harness.time.now.timeIntervalSince1970 * 1000)
        try await harness.registerDevices(FanOut.atOnceAudience, in: app)
        let small = await harness.request("POST", "/v1/messages", key: app.serverKey, body: #"{"message": {"title": "Your code"}, "audience": {"all": true}}"#)
        #expect(small.status == 202 && small["state"].string == "sending")
        #expect(small["counts"]["byState"]["queued"].int == FanOut.atOnceAudience)
        #expect(try await harness.store.claimDeliveries(now: now + 1, lease: 30_000, limit: 1_000).count == FanOut.atOnceAudience)

        try await harness.registerDevice(app, number: 1_000)
        let larger = await harness.request("POST", "/v1/messages", key: app.serverKey, body: #"{"message": {"title": "Digest"}, "audience": {"all": true}}"#)
        #expect(larger.status == 202 && larger["state"].string == "scheduled" && larger["counts"]["total"].int == 0)
    }

    /// A one-device post's delivery goes to this node's workers already claimed, with the message
    /// as the post stored it: the worker sends it without a claim of its own, and no claim finds
    /// it again. A message cancelled on this node before its turn is not sent.
    @Test func aPostsDeliveryGoesToThisNodesWorkersWithItsMessage() async throws {
        let sender = ScriptedSender()
        let handoff = Handoff(workers: 1, batchSize: 10)
        let harness = try await Harness(sender: sender, handoff: handoff)
        let app = try await harness.createApp()
        try await harness.registerDevices(2, in: app)
        let ids = await harness.request("GET", "/v1/devices", key: app.serverKey)["items"].array.compactMap { $0["id"].string }
        #expect(ids.count == 2)
        let now = Int(harness.time.now.timeIntervalSince1970 * 1000)
        let code = await harness.request("POST", "/v1/messages", key: app.serverKey, body: #"{"message": {"title": "Your code"}, "audience": {"deviceIds": ["\#(ids[0])"]}}"#)
        #expect(code.status == 202 && code["counts"]["byState"]["queued"].int == 1 && code["counts"]["total"].int == 1)
        #expect(handoff.room == 9)
        #expect(try await harness.store.claimDeliveries(now: now + 1, lease: 30_000, limit: 10).isEmpty, "handed over claimed")
        #expect(try await harness.worker.runOnce() == 1)
        #expect(sender.pushes.count == 1)
        #expect(await harness.request("GET", "/v1/messages/\(code["id"].string ?? "")", key: app.serverKey)["counts"]["byState"]["sent"].int == 1)

        let cancelled = await harness.request("POST", "/v1/messages", key: app.serverKey, body: #"{"message": {"title": "Oops"}, "audience": {"deviceIds": ["\#(ids[1])"]}}"#)
        #expect(handoff.room == 9)
        #expect(await harness.request("POST", "/v1/messages/\(cancelled["id"].string ?? "")/cancel", key: app.serverKey).status == 200)
        #expect(handoff.room == 10)
        #expect(try await harness.worker.runOnce() == 0)
        #expect(sender.pushes.count == 1, "a cancelled message's delivery was sent")
    }

    @Test func aRoundStartsWithTheMessagesNotStartedYet() {
        func record(_ id: String, _ app: String, _ state: MessageState) -> MessageRecord {
            MessageRecord(seq: 0, id: id, appID: app, content: nil, audience: nil, state: state, sendAt: 0, audienceSize: 0, fanOutCursor: 0, createdAt: 0)
        }
        let due = [record("a1", "A", .fanningOut), record("a2", "A", .scheduled), record("b1", "B", .fanningOut), record("c1", "C", .scheduled),
                   record("a3", "A", .scheduled), record("b2", "B", .fanningOut)]
        #expect(FanOut.roundOrder(due).map(\.id) == ["a2", "c1", "a3", "a1", "b1", "b2"])
    }

    @Test func takingTurnsInterleavesAppsOldestFirst() {
        func record(_ id: String, _ app: String) -> MessageRecord {
            MessageRecord(seq: 0, id: id, appID: app, content: nil, audience: nil, state: .scheduled, sendAt: 0, audienceSize: 0, fanOutCursor: 0, createdAt: 0)
        }
        let due = [record("a1", "A"), record("a2", "A"), record("a3", "A"), record("b1", "B"), record("c1", "C"), record("b2", "B")]
        #expect(FanOut.takingTurns(due).map(\.id) == ["a1", "b1", "c1", "a2", "b2", "a3"])
    }

    /// On the first release 40 receipts of 1 MB each were accepted for one delivery, and one read
    /// of it returned 38 MB. Fields are bounded, and so is the number of receipts a delivery keeps.
    @Test func receiptsAreBoundedPerFieldAndPerDelivery() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let (delivery, _) = try await harness.sentDelivery(app)
        let signature = harness.signer.receiptSignature(deliveryID: delivery)
        func receipt(_ id: Int, text: String = "ok") -> String {
            #"{"id": "r\#(id)", "deliveryId": "\#(delivery)", "event": "action", "actionId": "reply", "text": "\#(text)", "occurredAt": "2027-01-15T08:00:00Z", "signature": "\#(signature)"}"#
        }
        let huge = await harness.request("POST", "/v1/receipts", key: app.clientKey, body: receipt(0, text: String(repeating: "x", count: 1_000_000)))
        #expect(huge.status == 400 && huge["error"]["field"].string == "text")
        let render = #"{"id": "big-render", "deliveryId": "\#(delivery)", "event": "rendered", "occurredAt": "2027-01-15T08:00:00Z", "signature": "\#(signature)", "render": {"buttons": [], "imageAttached": false, "completion": "complete", "elapsedMilliseconds": 1, "diagnostics": [\#(Array(repeating: "\"d\"", count: 17).joined(separator: ","))]}}"#
        #expect(await harness.request("POST", "/v1/receipts", key: app.clientKey, body: render)["error"]["field"].string == "render.diagnostics")

        for id in 1...ReceiptsAPI.maximumReceiptsPerDelivery {
            #expect(await harness.request("POST", "/v1/receipts", key: app.clientKey, body: receipt(id)).status == 202)
        }
        let over = await harness.request("POST", "/v1/receipts", key: app.clientKey, body: receipt(1_000))
        #expect(over.status == 409 && over.errorCode == "too_many_receipts")
        // A repeat of an accepted receipt is still a duplicate, not an error.
        #expect(await harness.request("POST", "/v1/receipts", key: app.clientKey, body: receipt(1)).status == 200)
        let log = await harness.request("GET", "/v1/deliveries/\(delivery)", key: app.serverKey)
        #expect(log["history"].array.count == 2 + ReceiptsAPI.maximumReceiptsPerDelivery)
        #expect(log.text.utf8.count < 64_000)
    }
}
