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

/// Issue 29: the right to be forgotten. `DELETE /v1/users/{externalUserId}` deletes the user's
/// devices, removes what they typed into reply fields and their user ID from the delivery log,
/// and keeps every count.
@Suite("Deleting a user")
struct UserDeletionTests {
    static let reply = #"{"message": {"title": "How was it?", "buttons": [{"id": "reply", "text": "Reply", "input": {"button": "Send"}}]}, "audience": {"externalUserIds": ["alice", "bob"]}}"#

    private func typed(_ harness: Harness, _ app: TestApp, _ delivery: String, _ text: String) async -> Int {
        let signature = Signer(secretKey: Harness.secretKey).receiptSignature(deliveryID: delivery)
        let body = #"{"id": "r-\#(delivery)", "deliveryId": "\#(delivery)", "event": "action", "actionId": "reply", "text": "\#(text)", "occurredAt": "2027-01-15T08:00:00Z", "signature": "\#(signature)"}"#
        return await harness.request("POST", "/v1/receipts", key: app.clientKey, body: body).status
    }

    @Test func theUsersDevicesRepliesAndIDAreGoneAndTheCountsStay() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let alices = [
            try await harness.registerDevice(app, number: 1, extra: #", "externalUserId": "alice""#),
            try await harness.registerDevice(app, number: 2, platform: .android, extra: #", "externalUserId": "alice""#),
        ]
        let bobs = try await harness.registerDevice(app, number: 3, extra: #", "externalUserId": "bob""#)
        let message = try await harness.send(app, Self.reply)
        let scheduledAt = Timestamp.format(harness.time.now.addingTimeInterval(600))
        let scheduled = try await harness.send(app, #"{"message": {"title": "Later"}, "audience": {"externalUserIds": ["alice"]}, "sendAt": "\#(scheduledAt)"}"#)
        try await harness.deliverDue()
        let log = await harness.request("GET", "/v1/messages/\(message)/deliveries", key: app.serverKey)["items"].array
        func delivery(to device: String) throws -> String { try #require(log.first { $0["deviceId"].string == device }?["id"].string) }
        #expect(await typed(harness, app, try delivery(to: alices[0]), "Alice's private answer") == 202)
        #expect(await typed(harness, app, try delivery(to: bobs), "Bob's answer") == 202)
        let funnelBefore = await harness.request("GET", "/v1/messages/\(message)/funnel", key: app.serverKey)
        let countsBefore = await harness.request("GET", "/v1/messages/\(message)", key: app.serverKey)["counts"]

        let answer = await harness.request("DELETE", "/v1/users/alice", key: app.serverKey)
        #expect(answer.status == 200)
        #expect(answer["devicesDeleted"].int == 2 && answer["repliesRemoved"].int == 1 && answer["messagesRewritten"].int == 2)

        // Her devices are gone; Bob's is not.
        #expect(await harness.request("GET", "/v1/devices?externalUserId=alice", key: app.serverKey)["items"].array.isEmpty)
        for device in alices { #expect(await harness.request("GET", "/v1/devices/\(device)", key: app.serverKey).status == 404) }
        #expect(await harness.request("GET", "/v1/devices/\(bobs)", key: app.serverKey)["externalUserId"].string == "bob")
        // Her ID is gone from the audiences; her reply from the log, her tap kept.
        let stored = await harness.request("GET", "/v1/messages/\(message)", key: app.serverKey)
        #expect(stored["audience"]["externalUserIds"].array == [.string(""), .string("bob")])
        #expect(await harness.request("GET", "/v1/messages/\(scheduled)", key: app.serverKey)["audience"]["externalUserIds"].array == [.string("")])
        let after = await harness.request("GET", "/v1/messages/\(message)/deliveries", key: app.serverKey)
        #expect(!after.text.contains("Alice's private answer") && !after.text.contains("alice"))
        #expect(after.text.contains("Bob's answer"))
        let actions = after["items"].array.flatMap { $0["history"].array }.filter { $0["event"].string == "action" }
        #expect(actions.count == 2 && actions.allSatisfy { $0["actionId"].string == "reply" })
        #expect(after["items"].array.count == 3)
        // The counts are what they were.
        #expect(await harness.request("GET", "/v1/messages/\(message)/funnel", key: app.serverKey).json == funnelBefore.json)
        #expect(await harness.request("GET", "/v1/messages/\(message)", key: app.serverKey)["counts"] == countsBefore)

        // The message waiting for its time reaches nobody; a new one to her matches nobody.
        harness.advance(601)
        try await harness.deliverDue()
        #expect(await harness.request("GET", "/v1/messages/\(scheduled)/deliveries", key: app.serverKey)["items"].array.isEmpty)
        let again = await harness.request("POST", "/v1/messages", key: app.serverKey, body: #"{"message": {"title": "Hi"}, "audience": {"externalUserIds": ["alice"]}}"#)
        #expect(again["audienceSize"].int == 0)
        // Asking again finds nothing more to remove.
        let twice = await harness.request("DELETE", "/v1/users/alice", key: app.serverKey)
        #expect(twice.status == 200 && twice["devicesDeleted"].int == 0 && twice["repliesRemoved"].int == 0)
    }

    /// More devices and messages than one step takes: every one is done, a step at a time.
    @Test func aUserWithManyDevicesAndMessagesIsForgottenInSteps() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let now = Int(harness.time.now.timeIntervalSince1970 * 1000)
        let devices = try (1...(Forgetting.devicesPerStep * 2 + 5)).map {
            (DeviceUpsert(platform: .ios, token: Harness.token($0), externalUserID: "carol"), newID: try Identifier.make(milliseconds: now + $0))
        }
        _ = try await harness.store.registerDevices(appID: app.id, devices, now: now)
        let audience = Audience.externalUsers(["carol", "dave"])
        for index in 0..<(Forgetting.batch + 10) {
            let message = try NewMessage(
                id: try Identifier.make(milliseconds: now + index), appID: app.id, content: MessageContent(message: Message(title: "M\(index)"), variants: nil),
                audience: index.isMultiple(of: 2) ? audience : .everyone, sendAt: now + 3_600_000, audienceSize: 0, createdAt: now)
            _ = try await harness.store.createMessage(message, idempotencyKey: nil, window: 0)
        }
        let answer = await harness.request("DELETE", "/v1/users/carol", key: app.serverKey)
        #expect(answer.status == 200)
        #expect(answer["devicesDeleted"].int == devices.count)
        #expect(answer["messagesRewritten"].int == (Forgetting.batch + 10) / 2)
        #expect(try await harness.store.devices(appID: app.id, filter: DeviceFilter(), afterSeq: 0, limit: 10).isEmpty)
    }

    @Test func theServerKeyOnly() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1, extra: #", "externalUserId": "alice""#)
        #expect(await harness.request("DELETE", "/v1/users/alice", key: app.clientKey).status == 403)
        let other = try await harness.createApp("Other")
        #expect(await harness.request("DELETE", "/v1/users/alice", key: other.serverKey)["devicesDeleted"].int == 0)
        #expect(await harness.request("GET", "/v1/devices?externalUserId=alice", key: app.serverKey)["items"].array.count == 1)
    }
}
