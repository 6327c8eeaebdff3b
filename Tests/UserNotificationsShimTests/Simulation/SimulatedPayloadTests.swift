import Foundation
import Testing
import UserNotificationsShim

@Suite("SimulatedPayload: an APNs payload becomes the request iOS builds")
struct SimulatedPayloadTests {
    @Test func everyApsKeyMapsToItsContentProperty() throws {
        let json = Data("""
        {"aps": {"alert": {"title": "Order shipped", "subtitle": "#1234", "body": "Arriving Thursday"},
                 "category": "nb_0123456789abcdef", "thread-id": "orders", "badge": 3, "sound": "chime.caf",
                 "mutable-content": 1, "interruption-level": "time-sensitive", "relevance-score": 0.75,
                 "target-content-id": "order-1234"},
         "nb_id": "m1"}
        """.utf8)
        let content = try SimulatedPayload.request(fromJSON: json, identifier: "apns-1").content

        #expect(content.title == "Order shipped")
        #expect(content.subtitle == "#1234")
        #expect(content.body == "Arriving Thursday")
        #expect(content.categoryIdentifier == "nb_0123456789abcdef")
        #expect(content.threadIdentifier == "orders")
        #expect(content.badge == 3)
        #expect(content.sound == UNNotificationSound(named: UNNotificationSoundName("chime.caf")))
        #expect(content.interruptionLevel == .timeSensitive)
        #expect(content.relevanceScore == 0.75)
        #expect(content.targetContentIdentifier == "order-1234")
        #expect(content.userInfo["nb_id"] as? String == "m1", "the whole payload is the userInfo")
        #expect((content.userInfo["aps"] as? [String: Any])?["mutable-content"] != nil)
    }

    @Test func aStringAlertIsTheBody() {
        let content = SimulatedPayload.request(from: ["aps": ["alert": "Hello"]]).content
        #expect(content.body == "Hello")
        #expect(content.title.isEmpty)
        #expect(content.interruptionLevel == .active)
        #expect(content.sound == nil)
        #expect(content.badge == nil)
    }

    @Test func soundsMapToDefaultNamedAndCritical() {
        func sound(_ value: Any) -> UNNotificationSound? {
            SimulatedPayload.request(from: ["aps": ["alert": "x", "sound": value]]).content.sound
        }
        #expect(sound("default") == .default)
        #expect(sound("bell.caf") == UNNotificationSound(named: UNNotificationSoundName(rawValue: "bell.caf")))
        #expect(sound(["critical": 1, "name": "alarm.caf", "volume": 0.5])
                == UNNotificationSound.criticalSoundNamed(UNNotificationSoundName("alarm.caf"), withAudioVolume: 0.5))
        #expect(sound(["critical": 1, "name": "default"]) == .defaultCritical)
    }

    @Test func aPayloadThatIsNotAnObjectIsRejected() {
        #expect(throws: SimulationError.payloadNotAJSONObject) { try SimulatedPayload.request(fromJSON: Data("[1]".utf8)) }
    }

    @Test func mutableContentFromJSONRunsTheExtension() async throws {
        let json = Data(#"{"aps": {"alert": {"body": "Hi"}, "mutable-content": 1}}"#.utf8)
        let serviceExtension = retitlingExtension("Edited")
        let drawn = await SimulatedDevice().deliver(try SimulatedPayload.request(fromJSON: json), to: serviceExtension)
        #expect(drawn.contentSource == .serviceExtension)
        #expect(drawn.title == "Edited")
    }
}
