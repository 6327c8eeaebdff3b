import Foundation
import Testing
import NotibaseCore
import NotibaseSenders
@testable import NotibaseServer
@testable import NotibaseDomain
@testable import NotibaseServices
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// Issue 46: a message sent with `background: true` goes as a silent push (APNs background at
/// priority 5, FCM data at NORMAL), may not draw anything, and is `received`, never `rendered`.
@Suite("Silent background messages")
struct BackgroundMessageTests {
    static let silent = #"{"message": {"background": true, "data": {"sync": "inbox"}, "collapseId": "inbox", "ttl": 600}, "priority": "high", "audience": {"all": true}}"#

    @Test func aBackgroundMessageGoesSilentlyToBothPlatforms() async throws {
        let sender = ScriptedSender()
        let harness = try await Harness(sender: sender)
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1)
        try await harness.registerDevice(app, number: 2, platform: .android)
        let reply = await harness.request("POST", "/v1/messages", key: app.serverKey, body: Self.silent)
        #expect(reply.status == 202)
        #expect(reply["message"]["background"].bool == true)
        try await harness.deliverDue()
        #expect(sender.pushes.count == 2)
        for push in sender.pushes {
            switch push.request {
            case .apns(let request):
                #expect(request.header("apns-push-type") == "background")
                #expect(request.header("apns-priority") == "5")
                let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
                #expect(body["aps"] as? [String: Int] == ["content-available": 1])
                #expect(body["sync"] as? String == "inbox" && body[PayloadKey.delivery] as? String == push.deliveryID)
            case .fcm(let request):
                let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
                let message = try #require(body["message"] as? [String: Any])
                #expect(message["notification"] == nil)
                #expect((message["android"] as? [String: Any])?["priority"] as? String == "NORMAL")
                let data = try #require(message["data"] as? [String: String])
                #expect(data[PayloadKey.background] == "1" && data["sync"] == "inbox" && data[PayloadKey.title] == nil)
            }
        }
        let id = try #require(reply["id"].string)
        let log = await harness.request("GET", "/v1/messages/\(id)/deliveries", key: app.serverKey)
        #expect(log["items"].array.map { $0["state"].string } == ["sent", "sent"])
    }

    @Test(arguments: [
        (#""title": "Hi""#, "message.title"), (#""body": "Hi""#, "message.body"), (#""subtitle": "Hi""#, "message.subtitle"),
        (#""sound": "default""#, "message.sound"), (#""badge": 1"#, "message.badge"), (#""image": "https://cdn.example.com/a.jpg""#, "message.image"),
        (#""buttons": [{"id": "a", "text": "A"}]"#, "message.buttons"), (#""interruptionLevel": "passive""#, "message.interruptionLevel"),
        (#""url": "app://x""#, "message.url"), (#""category": "c""#, "message.category"), (#""threadId": "t""#, "message.threadId"),
    ])
    func anythingDrawnIsRefusedWithItsField(_ field: String, _ named: String) async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let body = #"{"message": {"background": true, \#(field)}, "audience": {"all": true}}"#
        let reply = await harness.request("POST", "/v1/messages", key: app.serverKey, body: body)
        #expect(reply.status == 400)
        #expect(reply["error"]["field"].string == named)
        #expect(reply["error"]["issues"][0]["code"].string == "not_with_background")
    }

    @Test func aVariantIsBackgroundExactlyWhenTheMessageIs() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let body = #"{"message": {"background": true}, "variants": {"fr": {"title": "Salut"}}, "audience": {"all": true}}"#
        let reply = await harness.request("POST", "/v1/messages", key: app.serverKey, body: body)
        #expect(reply.status == 400)
        let fields = reply["error"]["issues"].array.compactMap { $0["field"].string }
        #expect(fields == ["variants.fr.background"])
        let both = #"{"message": {"background": true}, "variants": {"fr": {"background": true, "data": {"k": "v"}}}, "audience": {"all": true}}"#
        #expect(await harness.request("POST", "/v1/messages", key: app.serverKey, body: both).status == 202)
    }

    @Test func aReceivedReceiptIsLoggedAndCountedAndNeverRendered() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let (delivery, message) = try await harness.sentDelivery(app, message: Self.silent)
        let signature = Signer(secretKey: Harness.secretKey).receiptSignature(deliveryID: delivery)
        let receipt = #"{"id": "r1", "deliveryId": "\#(delivery)", "messageId": "\#(message)", "event": "received", "occurredAt": "2027-01-15T08:00:00Z", "signature": "\#(signature)"}"#
        #expect(await harness.request("POST", "/v1/receipts", key: app.clientKey, body: receipt).status == 202)
        let log = await harness.request("GET", "/v1/deliveries/\(delivery)", key: app.serverKey)
        #expect(log["state"].string == "received")
        #expect(log["history"].array.map { $0["event"].string ?? "" } == ["queued", "sent", "received"])
        let funnel = await harness.request("GET", "/v1/messages/\(message)/funnel", key: app.serverKey)
        #expect(funnel["received"].int == 1 && funnel["rendered"].int == 0 && funnel["sent"].int == 1)
        let filtered = await harness.request("GET", "/v1/messages/\(message)/deliveries?state=received", key: app.serverKey)
        #expect(filtered["items"].array.count == 1)
    }
}
