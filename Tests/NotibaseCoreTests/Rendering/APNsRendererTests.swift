import Foundation
import Testing
@testable import NotibaseCore

@Suite("APNs rendering")
struct APNsRendererTests {
    let context = DeliveryContext(
        deviceToken: "ab12", messageID: "m1", deliveryID: "3f2a8c1e-6b4d-4e8f-9a7b-1c2d3e4f5a6b",
        now: Date(timeIntervalSince1970: 1_000_000))

    func render(_ message: Message, receipts: Bool = true) throws -> (request: APNsRequest, json: [String: Any]) {
        let request = try APNsRenderer(message: message, topic: "com.example.app", includesReceiptIDs: receipts).render(context)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
        return (request, json)
    }

    @Test func headers() throws {
        let (request, _) = try render(Message(title: "T", collapseID: "c", ttl: 60, priority: .normal))
        #expect(request.path == "/3/device/ab12")
        #expect(request.header("apns-push-type") == "alert")
        #expect(request.header("apns-priority") == "5")
        #expect(request.header("apns-topic") == "com.example.app")
        #expect(request.header("apns-collapse-id") == "c")
        #expect(request.header("apns-id") == "3f2a8c1e-6b4d-4e8f-9a7b-1c2d3e4f5a6b")
        #expect(request.header("apns-expiration") == "1000060")
    }

    @Test func apnsIDOnlyForUUIDs() throws {
        let request = try APNsRenderer(message: Message(title: "T"), topic: nil)
            .render(DeliveryContext(deviceToken: "ab", deliveryID: "not-a-uuid"))
        #expect(request.header("apns-id") == nil)
        #expect(request.header("apns-topic") == nil)
    }

    @Test func mutableContentOnlyWhenTheExtensionHasWork() throws {
        let plain = try render(Message(title: "T"), receipts: false).json["aps"] as? [String: Any]
        #expect(plain?["mutable-content"] == nil)
        for message in [Message(title: "T", buttons: [Button(id: "a", text: "A")]), Message(title: "T", imageURL: "https://x.test/a.png")] {
            let aps = try render(message, receipts: false).json["aps"] as? [String: Any]
            #expect(aps?["mutable-content"] as? Int == 1)
        }
        let withReceipts = try render(Message(title: "T")).json
        #expect((withReceipts["aps"] as? [String: Any])?["mutable-content"] as? Int == 1)
        #expect(withReceipts["nb_delivery"] as? String == context.deliveryID)
        #expect(withReceipts["nb_message"] as? String == "m1")
    }

    @Test func categoryIsDerivedFromButtonsElseExplicit() throws {
        let buttons = [Button(id: "track", text: "Track")]
        let derived = try render(Message(title: "T", buttons: buttons, category: "APP")).json["aps"] as? [String: Any]
        #expect(derived?["category"] as? String == "nb_40398f050d7a9fdd")
        let explicit = try render(Message(title: "T", category: "APP")).json["aps"] as? [String: Any]
        #expect(explicit?["category"] as? String == "APP")
        let none = try render(Message(title: "T")).json["aps"] as? [String: Any]
        #expect(none?["category"] == nil)
    }

    @Test func customDataIsTopLevelAndCannotOverrideAps() throws {
        let (_, json) = try render(Message(title: "T", data: ["orderId": 42]))
        #expect(json["orderId"] as? Int == 42)
        #expect(throws: RenderError.self) { try APNsRenderer(message: Message(title: "T", data: ["aps": ["alert": "x"]]), topic: nil) }
    }

    /// The body is shortened just enough: the payload fits, and one more character would not.
    @Test(arguments: ["a", "é", "👨‍👩‍👧", "\"", "\n", "\u{1}"])
    func bodyIsShortenedToTheLimit(unit: String) throws {
        let body = String(repeating: unit, count: 5000)
        let (request, json) = try render(Message(title: "T", body: body))
        #expect(request.body.count <= 4096)
        let shortened = try #require(((json["aps"] as? [String: Any])?["alert"] as? [String: Any])?["body"] as? String)
        #expect(shortened.hasSuffix("…"))
        let kept = shortened.dropLast()
        #expect(kept.allSatisfy { String($0) == unit })
        let unitCost = JSONWriter.encodedLength(of: Substring(unit)) - 2
        #expect(request.body.count > 4096 - unitCost, "one more \(unit.debugDescription) would have fit")
    }

    @Test func oversizedPayloadNamesTheLargestFields() {
        do {
            _ = try APNsRenderer(message: Message(title: "T", body: "b", data: ["big": .string(String(repeating: "x", count: 5000))]), topic: nil)
                .render(context)
            Issue.record("expected payload_too_large")
        } catch {
            #expect(error.code == "payload_too_large")
            #expect(error.largestFields.first?.field == "data.big")
            #expect((error.bytesOverLimit ?? 0) > 900)
            #expect(error.description.contains("data.big"))
        }
    }

    @Test func nonUUIDIdsLongerThanReservedStillFit() throws {
        let renderer = try APNsRenderer(message: Message(title: "T", body: String(repeating: "a", count: 5000)), topic: nil)
        let long = DeliveryContext(deviceToken: "x", messageID: String(repeating: "m", count: 200), deliveryID: String(repeating: "d", count: 200))
        #expect(try renderer.render(long).body.count <= 4096)
        let none = DeliveryContext(deviceToken: "x")
        let bigger = try renderer.render(none).body.count
        #expect(bigger <= 4096 && bigger > 4090)
    }

    @Test func escapingRoundTrips() throws {
        let text = "quote \" backslash \\ newline \n tab \t nul \u{0} slash / emoji 🇫🇷 e\u{301}"
        let (_, json) = try render(Message(title: text, body: text, data: ["k": .string(text)]))
        let alert = (json["aps"] as? [String: Any])?["alert"] as? [String: Any]
        #expect(alert?["title"] as? String == text)
        #expect(json["k"] as? String == text)
    }
}
