import Foundation
import Testing
import NotibaseCore
@preconcurrency import UserNotificationsShim
@testable import Notibase

@Suite("What a tap means")
struct ResponseInterpreterTests {
    let payload = NotificationPayload(userInfo: [
        "aps": ["alert": "Order shipped", "mutable-content": 1],
        "nb_buttons": [
            ["id": "track", "text": "Track", "url": "shop://orders/42/track"], ["id": "reply", "text": "Reply", "input": [:]],
            ["id": "later", "text": "Later"], ["id": "archive", "text": "Archive", "options": [] as [String]],
        ],
        "nb_url": "shop://orders/42", "nb_delivery": "d-1", "nb_message": "m-1",
    ])
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func openingGoesToTheNotificationsLink() {
        let (receipts, url) = ResponseInterpreter.interpret(payload: payload, actionIdentifier: UNNotificationDefaultActionIdentifier, typedText: nil, at: now)
        #expect(receipts.map(\.event) == [.opened])
        #expect(receipts.first?.deliveryID == "d-1" && receipts.first?.messageID == "m-1")
        #expect(url?.absoluteString == "shop://orders/42")
    }

    @Test func aForegroundButtonIsAnActionThatOpensItsOwnLink() {
        let (track, trackURL) = ResponseInterpreter.interpret(payload: payload, actionIdentifier: "track", typedText: nil, at: now)
        #expect(track.map(\.event) == [.action, .opened])
        #expect(track.first?.actionID == "track")
        #expect(Set(track.map(\.id)).count == 2)
        #expect(trackURL?.absoluteString == "shop://orders/42/track")
        let (_, laterURL) = ResponseInterpreter.interpret(payload: payload, actionIdentifier: "later", typedText: nil, at: now)
        #expect(laterURL?.absoluteString == "shop://orders/42")
    }

    @Test func aBackgroundButtonOpensNothing() {
        let (archive, url) = ResponseInterpreter.interpret(payload: payload, actionIdentifier: "archive", typedText: nil, at: now)
        #expect(archive.map(\.event) == [.action])
        #expect(url == nil)
    }

    @Test func aReplyCarriesTheTypedText() {
        let (reply, _) = ResponseInterpreter.interpret(payload: payload, actionIdentifier: "reply", typedText: "Leave it at the door", at: now)
        #expect(reply.first?.text == "Leave it at the door")
        #expect(reply.last?.text == nil)
    }

    @Test func dismissingOpensNothing() {
        let (receipts, url) = ResponseInterpreter.interpret(payload: payload, actionIdentifier: UNNotificationDismissActionIdentifier, typedText: nil, at: now)
        #expect(receipts.map(\.event) == [.dismissed])
        #expect(url == nil)
    }

    @Test func aNotificationNotibaseDidNotSendHasNoReceipt() {
        let other = NotificationPayload(userInfo: ["aps": ["alert": "Hi"], "nb_url": "app://x"])
        let (receipts, url) = ResponseInterpreter.interpret(payload: other, actionIdentifier: UNNotificationDefaultActionIdentifier, typedText: nil, at: now)
        #expect(receipts.isEmpty)
        #expect(url?.absoluteString == "app://x")
    }

    @Test func deviceTokensAreLowercaseHex() {
        #expect(DeviceRegistrationRequest.hex(Data([0x00, 0xab, 0x10, 0xff])) == "00ab10ff")
    }
}
