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

@Suite("Delivery: retries, dead tokens, leases, the delivery log")
struct DeliveryFlowTests {
    @Test func aTransientFailureIsRetriedAfterRetryAfterThenSent() async throws {
        let calls = Atomic<Int>(0)
        let sender = ScriptedSender { push in
            calls.add(1, ordering: .relaxed).newValue == 1
                ? SendOutcome(disposition: .retry, status: 429, providerReason: "TooManyRequests", explanation: "APNs is throttling", retryAfter: .seconds(120))
                : .sent(providerID: "apns-" + push.deliveryID)
        }
        let harness = try await Harness(sender: sender)
        let app = try await harness.createApp()
        let device = try await harness.registerDevice(app, number: 1)
        let id = try await harness.send(app, #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#)
        try await harness.deliverDue()

        var delivery = await harness.request("GET", "/v1/devices/\(device)/deliveries", key: app.serverKey)["items"][0]
        #expect(delivery["state"].string == "retrying")
        let retry = delivery["history"].array.last ?? .null
        #expect(retry["event"].string == "retrying")
        #expect(retry["providerReason"].string == "TooManyRequests")
        #expect(retry["explanation"].string == "APNs is throttling")
        #expect(retry["retryAt"].string == Timestamp.format(harness.time.now.addingTimeInterval(120)))
        #expect(await harness.request("GET", "/v1/messages/\(id)", key: app.serverKey)["state"].string == "sending")

        harness.advance(60)
        try await harness.deliverDue()
        #expect(sender.pushes.count == 1)  // not before Retry-After
        harness.advance(61)
        try await harness.deliverDue()
        delivery = await harness.request("GET", "/v1/devices/\(device)/deliveries", key: app.serverKey)["items"][0]
        #expect(delivery["state"].string == "sent")
        #expect(delivery["attempts"].int == 2)
        #expect(delivery["providerId"].string?.hasPrefix("apns-") == true)
        #expect(delivery["history"].array.map { $0["event"].string ?? "" } == ["queued", "retrying", "sent"])
        #expect(await harness.request("GET", "/v1/messages/\(id)", key: app.serverKey)["state"].string == "completed")
    }

    @Test func aDeadTokenFailsTheDeliveryAndDeactivatesTheDevice() async throws {
        let since = Date(timeIntervalSince1970: 1_790_000_000)
        let sender = ScriptedSender { _ in
            SendOutcome(disposition: .deactivateDevice, status: 410, providerReason: "Unregistered", explanation: "the app was removed from the device", tokenInvalidSince: since)
        }
        let harness = try await Harness(sender: sender)
        let app = try await harness.createApp()
        let device = try await harness.registerDevice(app, number: 1)
        _ = try await harness.send(app, #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#)
        try await harness.deliverDue()

        let stored = await harness.request("GET", "/v1/devices/\(device)", key: app.serverKey)
        #expect(stored["active"].bool == false)
        #expect(stored["deactivatedReason"].string == "Unregistered")
        #expect(stored["deactivatedAt"].string == Timestamp.format(since))
        let failed = await harness.request("GET", "/v1/devices/\(device)/deliveries?state=failed", key: app.serverKey)["items"][0]
        #expect(failed["history"].array.last?["providerReason"].string == "Unregistered")
        #expect(failed["history"].array.last?["deviceDeactivated"].bool == true)

        // The next message skips it; registering the token again reactivates it.
        let next = await harness.request("POST", "/v1/messages", key: app.serverKey, body: #"{"message": {"title": "Again"}, "audience": {"all": true}}"#)
        #expect(next["audienceSize"].int == 0)
        try await harness.registerDevice(app, number: 1)
        #expect(await harness.request("GET", "/v1/devices/\(device)", key: app.serverKey)["active"].bool == true)
    }

    @Test func aPermanentFailureKeepsTheProvidersWordsAndOurs() async throws {
        let sender = ScriptedSender { _ in
            SendOutcome(disposition: .failed, status: 400, providerReason: "BadCollapseId", explanation: "the collapse ID is longer than 64 bytes")
        }
        let harness = try await Harness(sender: sender)
        let app = try await harness.createApp()
        let device = try await harness.registerDevice(app, number: 1)
        _ = try await harness.send(app, #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#)
        try await harness.deliverDue()
        let entry = await harness.request("GET", "/v1/devices/\(device)/deliveries", key: app.serverKey)["items"][0]["history"].array.last ?? .null
        #expect(entry["event"].string == "failed")
        #expect(entry["providerReason"].string == "BadCollapseId")
        #expect(entry["explanation"].string == "the collapse ID is longer than 64 bytes")
        #expect(entry["status"].int == 400)
    }

    @Test func aClaimWhoseWorkerDiedIsClaimedAgainWhenTheLeaseEnds() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        for number in 1...3 { try await harness.registerDevice(app, number: number) }
        _ = try await harness.send(app, #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#)
        try await harness.fanOut.runOnce()
        // A worker claims and "dies" without recording anything.
        let now = Int(harness.time.now.timeIntervalSince1970 * 1000)
        let lost = try await harness.store.claimDeliveries(now: now, lease: 30_000, limit: 10)
        #expect(lost.count == 3)
        #expect(try await harness.store.claimDeliveries(now: now + 29_000, lease: 30_000, limit: 10).isEmpty)
        harness.advance(31)
        try await harness.deliverDue()
        let sent = await harness.request("GET", "/v1/devices", key: app.serverKey)
        #expect(sent["items"].array.count == 3)
        #expect(try await harness.store.queueDepth() == 0)
    }

    @Test func withStoredCredentialsAnAppWithoutThemFailsWithTheFix() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1)
        let worker = DeliveryWorker(
            store: harness.store, senders: SenderSet(ios: ScriptedSender(), android: ScriptedSender(), credentials: .stored),
            vault: CredentialVault(store: harness.store, box: try SecretBox(key: Array(repeating: 7, count: 32))),
            clock: WallClock { harness.time.now }, logger: .silent, metrics: Metrics(), signer: harness.signer, options: .init())
        let id = try await harness.send(app, #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#)
        try await harness.fanOut.runOnce()
        try await worker.runOnce()
        let entry = await harness.request("GET", "/v1/messages/\(id)/deliveries", key: app.serverKey)["items"][0]["history"].array.last ?? .null
        #expect(entry["event"].string == "failed")
        #expect(entry["reason"].string?.contains("PUT /v1/apps/\(app.id)/credentials/apns") == true)
    }

    @Test func storedAPNsCredentialsReachTheSenderAndSetTheTopic() async throws {
        let sender = ScriptedSender()
        let harness = try await Harness()
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1)
        let put = await harness.request("PUT", "/v1/apps/\(app.id)/credentials/apns", key: app.serverKey, body: TestCredentials.apns())
        #expect(put.status == 200)
        #expect(!put.text.contains("PRIVATE KEY"))
        let shown = await harness.request("GET", "/v1/apps/\(app.id)", key: app.serverKey)
        #expect(shown["credentials"]["apns"]["bundleId"].string == "com.example.shop")
        #expect(!shown.text.contains("PRIVATE KEY"))

        let box = try SecretBox(key: Array(repeating: 7, count: 32))
        let stored = try await harness.store.credentials(appID: app.id)
        #expect(stored.count == 1)
        #expect(!String(decoding: stored[0].sealed, as: UTF8.self).contains("PRIVATE KEY"))
        #expect((try? box.open(stored[0].sealed, context: "apns:other-app")) == nil)  // bound to its app

        let vault = CredentialVault(store: harness.store, box: box)
        let worker = DeliveryWorker(
            store: harness.store, senders: SenderSet(ios: sender, android: sender, credentials: .stored),
            vault: vault, clock: WallClock { harness.time.now }, logger: .silent, metrics: Metrics(), signer: harness.signer, options: .init())
        for number in 2...40 { try await harness.registerDevice(app, number: number) }
        _ = try await harness.send(app, #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#)
        try await harness.fanOut.runOnce()
        #expect(try await worker.runOnce() == 40)
        #expect(await vault.lookups == 1, "the app's credentials are read once for the whole batch, not once per delivery")
        #expect(sender.pushes.count == 40)
        let push = try #require(sender.pushes.first)
        guard case .apns(let credentials) = push.credentials, case .apns(let request) = push.request else { Issue.record("expected APNs"); return }
        #expect(credentials.bundleID == "com.example.shop" && credentials.environment == .sandbox)
        #expect(request.header("apns-topic") == "com.example.shop")
    }
}
