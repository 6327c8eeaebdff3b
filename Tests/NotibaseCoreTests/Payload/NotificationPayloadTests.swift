import Foundation
import Testing
import NotibaseTestSupport
@testable import NotibaseCore

@Suite("Reading a received payload")
struct NotificationPayloadTests {
    @Test func readsARenderedPayload() throws {
        let message = Message(
            title: "T", subtitle: "S", body: "B",
            buttons: [Button(id: "a", text: "A", options: [.destructive], icon: "system:trash", url: "app://a"),
                      Button(id: "r", text: "Reply", input: .init(button: "Send", placeholder: "…"))],
            imageURL: "https://x.test/i.jpg", url: "app://home")
        let request = try APNsRenderer(message: message, topic: nil).render(DeliveryContext(deviceToken: "t", messageID: "m", deliveryID: "d", receiptSignature: "sig"))
        let userInfo = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [AnyHashable: Any])
        let payload = NotificationPayload(userInfo: userInfo)
        #expect(payload.title == "T" && payload.subtitle == "S" && payload.body == "B")
        #expect(payload.buttons == message.buttons)
        #expect(payload.imageURL == "https://x.test/i.jpg")
        #expect(payload.url == "app://home")
        #expect(payload.messageID == "m" && payload.deliveryID == "d" && payload.receiptSignature == "sig")
        #expect(payload.mutableContent)
        #expect(payload.category == payload.derivedCategoryID)
        #expect(!payload.namesAppCategory)
        #expect(payload.diagnostics.isEmpty)
    }

    @Test func alertAsAString() {
        let payload = NotificationPayload(userInfo: ["aps": ["alert": "Hello", "category": "INVITE"]])
        #expect(payload.body == "Hello")
        #expect(payload.title == nil)
        #expect(payload.namesAppCategory)
        #expect(!payload.mutableContent)
    }

    @Test func malformedButtonsAreSkippedAndReported() {
        let payload = NotificationPayload(userInfo: [
            "aps": ["alert": ["body": "x"], "mutable-content": 1],
            "nb_buttons": [
                ["id": "ok", "text": "OK"],
                "not an object",
                ["id": "", "text": "Empty id"],
                ["id": "notext"],
                ["id": "ok", "text": "Duplicate"],
                ["id": 7, "text": "Numeric id"],
                ["id": "opts", "text": "Options", "options": ["destructive", "loud", 3]],
                ["id": "icon", "text": "Icon", "icon": "trash"],
                ["id": "in", "text": "Input", "input": "yes"],
                ["id": "com.apple.x", "text": "Reserved"],
            ] as [Any],
        ])
        #expect(payload.buttons.map(\.id) == ["ok", "7", "opts", "icon", "in"])
        #expect(payload.buttons[2].options == [.destructive])
        #expect(payload.buttons[3].icon == nil)
        #expect(payload.buttons[4].input == nil)
        let fields = payload.diagnostics.map(\.field)
        #expect(fields.contains("nb_buttons[1]"))
        #expect(fields.contains("nb_buttons[2].id"))
        #expect(fields.contains("nb_buttons[3].text"))
        #expect(fields.contains("nb_buttons[4].id"))
        #expect(fields.contains("nb_buttons[5].id"))
        #expect(fields.contains("nb_buttons[6].options[1]"))
        #expect(fields.contains("nb_buttons[9].id"))
    }

    @Test func buttonsAsAJSONString() {
        let payload = NotificationPayload(userInfo: ["aps": ["alert": "x"], "nb_buttons": #"[{"id":"a","text":"A"}]"#])
        #expect(payload.buttons == [Button(id: "a", text: "A")])
        let broken = NotificationPayload(userInfo: ["aps": ["alert": "x"], "nb_buttons": "[{"])
        #expect(broken.buttons.isEmpty)
        #expect(broken.diagnostics.map(\.field) == ["nb_buttons"])
    }

    @Test func moreThanTenButtonsKeepsTheFirstTen() {
        let buttons: [Any] = (0..<12).map { ["id": "b\($0)", "text": "B"] }
        let payload = NotificationPayload(userInfo: ["aps": ["alert": "x"], "nb_buttons": buttons])
        #expect(payload.buttons.count == 10)
        #expect(payload.buttons.last?.id == "b9")
    }

    @Test func wrongTopLevelShapes() {
        #expect(NotificationPayload(userInfo: [:]).diagnostics.map(\.field) == ["aps"])
        #expect(NotificationPayload(userInfo: ["aps": 3]).diagnostics.map(\.field) == ["aps"])
        #expect(NotificationPayload(json: .array([])).diagnostics.last?.message == "the payload is not a JSON object")
        let mutable = NotificationPayload(userInfo: ["aps": ["alert": "x", "mutable-content": true]])
        #expect(mutable.mutableContent)
    }
}
