import Foundation
import Testing
@testable import NotibaseCore

/// Issue 46: a background message draws nothing, so validation refuses every drawn field with it,
/// each named, and allows what a silent push uses.
@Suite("Background message validation")
struct BackgroundValidationTests {
    func errors(_ message: Message) -> [ValidationIssue] {
        message.validate().filter { $0.severity == .error }
    }

    @Test func dataCollapseTTLAndExpiryAreAllowedWithoutText() {
        #expect(errors(Message(background: true)).isEmpty)
        #expect(errors(Message(collapseID: "sync", ttl: 60, data: ["k": "v"], background: true)).isEmpty)
        #expect(errors(Message(expiresAt: Date(timeIntervalSince1970: 1_900_000_000), background: true)).isEmpty)
    }

    @Test func everyDrawnFieldIsRefusedAndNamed() {
        let message = Message(
            title: "T", subtitle: "S", body: "B", buttons: [Button(id: "a", text: "A")], imageURL: "https://cdn.example.com/a.jpg",
            url: "app://x", sound: "default", badge: 1, threadID: "t", interruptionLevel: .passive, relevanceScore: 0.5,
            category: "c", targetContentID: "w", background: true)
        let issues = errors(message)
        #expect(issues.map(\.field) == [
            "title", "subtitle", "body", "buttons", "image", "url", "sound", "badge", "threadId", "interruptionLevel",
            "relevanceScore", "category", "targetContentId",
        ])
        #expect(Set(issues.map(\.code)) == ["not_with_background"])
    }

    @Test func highPriorityIsAWarningNotAnError() {
        let issues = Message(priority: .high, background: true).validate()
        #expect(issues.map(\.code) == ["ignored_with_background"])
        #expect(issues.first?.severity == .warning)
    }

    @Test func theFieldRoundTripsAndIsLeftOutWhenFalse() throws {
        let decoded = try JSONDecoder().decode(Message.self, from: Data(#"{"background": true, "data": {"k": 1}}"#.utf8))
        #expect(decoded.background)
        let encoded = String(decoding: try JSONEncoder().encode(decoded), as: UTF8.self)
        #expect(encoded.contains(#""background":true"#))
        let alert = String(decoding: try JSONEncoder().encode(Message(title: "T")), as: UTF8.self)
        #expect(!alert.contains("background"))
    }

    @Test func theRenderersRefuseADrawnBackgroundMessage() {
        #expect(throws: RenderError.self) { try APNsRenderer(message: Message(title: "T", background: true), topic: "com.example.app") }
        #expect(throws: RenderError.self) { try FCMRenderer(message: Message(sound: "default", background: true)) }
    }

    @Test func anAPNsBackgroundPushIsReadBackAsOne() throws {
        let request = try APNsRenderer(message: Message(data: ["k": "v"], background: true), topic: "com.example.app")
            .render(DeliveryContext(deviceToken: "ab", messageID: "m", deliveryID: "3f2a8c1e-6b4d-4e8f-9a7b-1c2d3e4f5a6b", receiptSignature: "s"))
        let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
        let payload = NotificationPayload(userInfo: body)
        #expect(payload.isBackground && !payload.mutableContent && payload.deliveryID == "3f2a8c1e-6b4d-4e8f-9a7b-1c2d3e4f5a6b")
        #expect(payload.receiptSignature == "s" && payload.diagnostics.isEmpty)
        #expect(!NotificationPayload(userInfo: ["aps": ["alert": "Hi", "content-available": 1]]).isBackground)
    }

    @Test func aTooLargeBackgroundPushNamesItsData() {
        let message = Message(data: ["big": .string(String(repeating: "x", count: 5000))], background: true)
        #expect {
            try APNsRenderer(message: message, topic: "t").render(DeliveryContext(deviceToken: "ab"))
        } throws: { error in
            (error as? RenderError)?.description.contains("data.big") == true
        }
    }
}
