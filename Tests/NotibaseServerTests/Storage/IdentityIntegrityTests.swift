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

/// Internal IDs are never reused and every reference is enforced, so nothing meant for one device,
/// message or app ever reaches another. Each test is an attack that worked on the first schema.
@Suite("Identities and references")
struct IdentityIntegrityTests {
    /// Retries every push to `retryToken` (a 429), sends the rest.
    static func sender(retrying retryToken: String) -> ScriptedSender {
        ScriptedSender { push in
            push.request.deviceToken == retryToken
                ? SendOutcome(disposition: .retry, status: 429, providerReason: "TooManyRequests", retryAfter: .seconds(60))
                : .sent(providerID: "p-" + push.deliveryID)
        }
    }

    /// App B's push waits to be retried; B's device is deleted; app A registers a device. On the
    /// first schema A's device took B's device number, and the retry went to A's phone with B's
    /// text. Now the retry fails with the reason and A's phone gets nothing.
    @Test func aRetryForADeletedDeviceNeverReachesTheNextDevice() async throws {
        let bToken = Harness.token(2)
        let sender = Self.sender(retrying: bToken)
        let harness = try await Harness(sender: sender)
        let a = try await harness.createApp("A")
        let b = try await harness.createApp("B")
        let bDevice = try await harness.registerDevice(b, number: 2)
        let message = try await harness.send(b, #"{"message": {"title": "Your login code is 913 552"}, "audience": {"all": true}}"#)
        try await harness.deliverDue()
        let waiting = await harness.request("GET", "/v1/messages/\(message)/deliveries", key: b.serverKey)["items"][0]
        #expect(waiting["state"].string == "retrying")

        #expect(await harness.request("DELETE", "/v1/devices/\(bDevice)", key: b.serverKey).status == 204)
        let aDevice = try await harness.registerDevice(a, number: 1)
        harness.advance(120)
        try await harness.deliverDue()

        #expect(!sender.pushes.contains { $0.request.deviceToken == Harness.token(1) }, "B's push reached A's phone")
        let aLog = await harness.request("GET", "/v1/devices/\(aDevice)/deliveries", key: a.serverKey)
        #expect(aLog.status == 200 && aLog["items"].array.isEmpty)
        let bDelivery = await harness.request("GET", "/v1/messages/\(message)/deliveries", key: b.serverKey)["items"][0]
        #expect(bDelivery["state"].string == "failed")
        #expect(bDelivery["history"].array.last?["reason"].string?.contains("device was deleted") == true)
        #expect(bDelivery["deviceId"] == .null)
        #expect(await harness.request("GET", "/v1/messages/\(message)", key: b.serverKey)["state"].string == "completed")
    }

    /// The same within one app: a user logs out (the device is deleted) and another logs in on a
    /// new phone. The first user's history does not become the new phone's.
    @Test func aNewDeviceStartsWithAnEmptyLog() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let old = try await harness.registerDevice(app, number: 1)
        _ = try await harness.send(app, #"{"message": {"title": "For the old phone"}, "audience": {"all": true}}"#)
        try await harness.deliverDue()
        #expect(await harness.request("DELETE", "/v1/devices/\(old)", key: app.serverKey).status == 204)
        let new = try await harness.registerDevice(app, number: 2)
        let log = await harness.request("GET", "/v1/devices/\(new)/deliveries", key: app.serverKey)
        #expect(log["items"].array.isEmpty)
    }

    /// A device replaced by a new token (APNs rotated it) is deactivated; a push still waiting for
    /// it fails with that reason and goes to no other token.
    @Test func aRetryForAReplacedTokenFailsWithTheReason() async throws {
        let sender = Self.sender(retrying: Harness.token(1))
        let harness = try await Harness(sender: sender)
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1)
        let message = try await harness.send(app, #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#)
        try await harness.deliverDue()
        try await harness.registerDevice(app, number: 3, extra: #", "previousToken": "\#(Harness.token(1))""#)
        harness.advance(120)
        try await harness.deliverDue()
        let delivery = await harness.request("GET", "/v1/messages/\(message)/deliveries", key: app.serverKey)["items"][0]
        #expect(delivery["state"].string == "failed")
        #expect(delivery["history"].array.last?["reason"].string?.contains("replaced by a new token") == true)
        #expect(!sender.pushes.contains { $0.request.deviceToken == Harness.token(3) })
    }

    /// Deleting an app deletes everything of it. On the first schema its deliveries, events and
    /// receipts stayed, and the next app's messages (given the same numbers) listed them, and its
    /// client key could post receipts on them.
    @Test func deletingAnAppLeavesNothingForTheNextApp() async throws {
        let harness = try await Harness()
        let old = try await harness.createApp("Old")
        try await harness.registerDevice(old, number: 1)
        let oldMessage = try await harness.send(old, #"{"message": {"title": "Old"}, "audience": {"all": true}}"#)
        try await harness.deliverDue()
        let oldDelivery = try #require(await harness.request("GET", "/v1/messages/\(oldMessage)/deliveries", key: old.serverKey)["items"][0]["id"].string)
        let receipt = #"{"id": "r-old", "deliveryId": "\#(oldDelivery)", "event": "opened", "occurredAt": "2027-01-15T08:00:00Z", "signature": "\#(harness.signer.receiptSignature(deliveryID: oldDelivery))"}"#
        #expect(await harness.request("POST", "/v1/receipts", key: old.clientKey, body: receipt).status == 202)

        #expect(await harness.request("DELETE", "/v1/apps/\(old.id)", key: Harness.adminKey).status == 204)
        for table in ["devices", "messages", "deliveries", "delivery_events", "receipts", "idempotency_keys", "credentials"] {
            #expect(try await harness.store.rowCount(table) == 0, "\(table) kept rows of the deleted app")
        }

        let next = try await harness.createApp("Next")
        try await harness.registerDevice(next, number: 2)
        let nextMessage = try await harness.send(next, #"{"message": {"title": "Next"}, "audience": {"all": true}}"#)
        let listed = await harness.request("GET", "/v1/messages/\(nextMessage)/deliveries", key: next.serverKey)
        #expect(!listed.text.contains(oldDelivery))
        let replayed = #"{"id": "r-next", "deliveryId": "\#(oldDelivery)", "event": "opened", "occurredAt": "2027-01-15T08:00:00Z", "signature": "\#(harness.signer.receiptSignature(deliveryID: oldDelivery))"}"#
        #expect(await harness.request("POST", "/v1/receipts", key: next.clientKey, body: replayed).status == 404)
    }

    /// Numbers handed out once are never handed out again, even for the highest row.
    @Test func deletedRowNumbersAreNotReused() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let first = try await harness.registerDevice(app, number: 1)
        let firstSeq = try #require(try await harness.store.device(appID: app.id, id: first)?.seq)
        #expect(await harness.request("DELETE", "/v1/devices/\(first)", key: app.serverKey).status == 204)
        let second = try await harness.registerDevice(app, number: 2)
        #expect(try #require(try await harness.store.device(appID: app.id, id: second)?.seq) > firstSeq)

        let message = try await harness.send(app, #"{"message": {"title": "One"}, "audience": {"all": true}}"#)
        let messageSeq = try #require(try await harness.store.message(appID: app.id, id: message)?.seq)
        #expect(await harness.request("DELETE", "/v1/apps/\(app.id)", key: Harness.adminKey).status == 204)
        let other = try await harness.createApp()
        let later = try await harness.send(other, #"{"message": {"title": "Two"}, "audience": {"all": true}}"#)
        #expect(try #require(try await harness.store.message(appID: other.id, id: later)?.seq) > messageSeq)
    }
}
