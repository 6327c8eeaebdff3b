import Foundation
import Testing
import NotibaseCore
@preconcurrency import UserNotificationsShim
@testable import Notibase

@Suite("What a tap means")
struct ResponseInterpreterTests {
    let payload = NotificationPayload(userInfo: [
        "aps": ["alert": "Order shipped", "mutable-content": 1],
        "nb_buttons": [["id": "track", "text": "Track", "url": "shop://orders/42/track"], ["id": "reply", "text": "Reply", "input": [:]], ["id": "later", "text": "Later"]],
        "nb_url": "shop://orders/42", "nb_delivery": "d-1", "nb_message": "m-1",
    ])
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func openingGoesToTheNotificationsLink() {
        let (receipt, url) = ResponseInterpreter.interpret(payload: payload, actionIdentifier: UNNotificationDefaultActionIdentifier, typedText: nil, at: now)
        #expect(receipt?.event == .opened && receipt?.deliveryID == "d-1" && receipt?.messageID == "m-1")
        #expect(url?.absoluteString == "shop://orders/42")
    }

    @Test func aButtonGoesToItsOwnLinkElseTheNotifications() {
        let (track, trackURL) = ResponseInterpreter.interpret(payload: payload, actionIdentifier: "track", typedText: nil, at: now)
        #expect(track?.event == .action && track?.actionID == "track")
        #expect(trackURL?.absoluteString == "shop://orders/42/track")
        let (_, laterURL) = ResponseInterpreter.interpret(payload: payload, actionIdentifier: "later", typedText: nil, at: now)
        #expect(laterURL?.absoluteString == "shop://orders/42")
    }

    @Test func aReplyCarriesTheTypedText() {
        let (reply, _) = ResponseInterpreter.interpret(payload: payload, actionIdentifier: "reply", typedText: "Leave it at the door", at: now)
        #expect(reply?.text == "Leave it at the door")
    }

    @Test func dismissingOpensNothing() {
        let (receipt, url) = ResponseInterpreter.interpret(payload: payload, actionIdentifier: UNNotificationDismissActionIdentifier, typedText: nil, at: now)
        #expect(receipt?.event == .dismissed)
        #expect(url == nil)
    }

    @Test func aNotificationNotibaseDidNotSendHasNoReceipt() {
        let other = NotificationPayload(userInfo: ["aps": ["alert": "Hi"], "nb_url": "app://x"])
        let (receipt, url) = ResponseInterpreter.interpret(payload: other, actionIdentifier: UNNotificationDefaultActionIdentifier, typedText: nil, at: now)
        #expect(receipt == nil)
        #expect(url?.absoluteString == "app://x")
    }

    @Test func deviceTokensAreLowercaseHex() {
        #expect(DeviceRegistration.hex(Data([0x00, 0xab, 0x10, 0xff])) == "00ab10ff")
    }
}
