import Foundation
import Testing
@testable import NotibaseCore

@Suite("FCM rendering")
struct FCMRendererTests {
    let context = DeliveryContext(deviceToken: "tok", messageID: "m1", deliveryID: "d1", now: Date(timeIntervalSince1970: 1_000_000))

    func message(_ message: Message) throws -> [String: Any] {
        let request = try FCMRenderer(message: message).render(context)
        let json = try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
        return try #require(json?["message"] as? [String: Any])
    }

    @Test func dataOnlyWithStringValues() throws {
        let body = try message(Message(
            title: "T", body: "B", buttons: [Button(id: "a", text: "A")], badge: 2,
            data: ["n": 1, "o": ["x": true], "s": "text"]))
        #expect(body["notification"] == nil, "a notification block would make Android draw it without our buttons")
        #expect(body["token"] as? String == "tok")
        let data = try #require(body["data"] as? [String: String])
        #expect(data["nb_title"] == "T")
        #expect(data["nb_body"] == "B")
        #expect(data["nb_badge"] == "2")
        #expect(data["n"] == "1")
        #expect(data["o"] == #"{"x":true}"#)
        #expect(data["s"] == "text")
        #expect(data["nb_delivery"] == "d1")
        #expect(data["nb_message"] == "m1")
        // The buttons are the nb_buttons JSON, decodable as the same buttons.
        let buttons = try JSONDecoder().decode([Button].self, from: Data(try #require(data["nb_buttons"]).utf8))
        #expect(buttons == [Button(id: "a", text: "A")])
    }

    @Test func androidOptions() throws {
        let android = try message(Message(title: "T", collapseID: "c", ttl: 90, priority: .normal))["android"] as? [String: Any]
        #expect(android?["priority"] as? String == "NORMAL")
        #expect(android?["ttl"] as? String == "90s")
        #expect(android?["collapse_key"] as? String == "c")
        let expiring = try message(Message(title: "T", expiresAt: Date(timeIntervalSince1970: 1_000_100)))["android"] as? [String: Any]
        #expect(expiring?["ttl"] as? String == "100s")
        #expect(expiring?["priority"] as? String == "HIGH")
    }

    @Test func bodyIsShortenedToFit() throws {
        let data = try message(Message(title: "T", body: String(repeating: "ü", count: 3000)))["data"] as? [String: String]
        let entries = (data ?? [:]).map { (key: $0.key, value: $0.value) }
        #expect(FCMRenderer.dataSize(of: entries) <= 4096)
        #expect(FCMRenderer.dataSize(of: entries) > 4096 - 2)
        #expect(data?["nb_body"]?.hasSuffix("…") == true)
    }

    @Test func fourButtonsAreRejectedForAndroid() {
        let four = Message(title: "T", buttons: (1...4).map { Button(id: "b\($0)", text: "B") })
        #expect(throws: RenderError.self) { try FCMRenderer(message: four) }
        #expect(throws: Never.self) { try APNsRenderer(message: four, topic: nil) }
    }
}
