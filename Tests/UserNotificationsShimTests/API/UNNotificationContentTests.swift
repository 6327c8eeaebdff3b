import Foundation
import Testing
import UserNotificationsShim

@Suite("UNNotificationContent: copies as on iOS")
struct UNNotificationContentTests {
    static func sample() -> UNMutableNotificationContent {
        let content = UNMutableNotificationContent()
        content.title = "Order shipped"
        content.subtitle = "#1234"
        content.body = "Arriving Thursday"
        content.badge = 3
        content.sound = .default
        content.userInfo = ["nb_id": "m1"]
        content.categoryIdentifier = "nb_0123456789abcdef"
        content.threadIdentifier = "orders"
        content.interruptionLevel = .timeSensitive
        content.relevanceScore = 0.5
        content.targetContentIdentifier = "order-1234"
        return content
    }

    @Test func mutableCopyIsEditableAndIndependent() throws {
        let original = UNNotificationContent().mutableCopy() as? UNMutableNotificationContent
        #expect(original != nil)

        let source = Self.sample()
        let copy = try #require(source.mutableCopy() as? UNMutableNotificationContent)
        #expect(copy !== source)
        #expect(copy.title == "Order shipped")
        #expect(copy.subtitle == "#1234")
        #expect(copy.body == "Arriving Thursday")
        #expect(copy.badge == 3)
        #expect(copy.sound == .default)
        #expect(copy.userInfo["nb_id"] as? String == "m1")
        #expect(copy.categoryIdentifier == "nb_0123456789abcdef")
        #expect(copy.threadIdentifier == "orders")
        #expect(copy.interruptionLevel == .timeSensitive)
        #expect(copy.relevanceScore == 0.5)
        #expect(copy.targetContentIdentifier == "order-1234")

        copy.title = "Changed"
        #expect(source.title == "Order shipped")
    }

    @Test func copyOfMutableContentIsImmutableAndFrozen() {
        let source = Self.sample()
        let copy = source.copy() as? UNNotificationContent
        #expect(copy != nil)
        #expect(!(copy is UNMutableNotificationContent))
        source.title = "Changed"
        #expect(copy?.title == "Order shipped")
    }

    @Test func aRequestKeepsAnImmutableCopyOfItsContent() {
        let content = Self.sample()
        let request = UNNotificationRequest(identifier: "r1", content: content, trigger: nil)
        content.title = "Changed after scheduling"
        #expect(request.content.title == "Order shipped")
        #expect(!(request.content is UNMutableNotificationContent))
        #expect(request.identifier == "r1")
        #expect(request.trigger == nil)
    }

    @Test func remoteRequestsHaveAPushTrigger() {
        let request = SimulatedPayload.request(from: payload())
        #expect(request.trigger is UNPushNotificationTrigger)
        #expect(request.trigger?.repeats == false)
    }

    @Test func concurrentEditsNeverTear() {
        let content = UNMutableNotificationContent()
        let titles = (0..<8).map { String(repeating: "\($0)", count: 64) }
        let shared = Unchecked(content)
        DispatchQueue.concurrentPerform(iterations: 2_000) { index in
            if index.isMultiple(of: 2) {
                shared.value.title = titles[index % titles.count]
            } else {
                let title = shared.value.title
                #expect(title.isEmpty || titles.contains(title))
            }
        }
        #expect(titles.contains(content.title))
    }
}
