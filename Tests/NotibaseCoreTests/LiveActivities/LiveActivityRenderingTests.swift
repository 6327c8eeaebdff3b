import Foundation
import Testing
@testable import NotibaseCore

@Suite("Live Activity rendering")
struct LiveActivityRenderingTests {
    static let id = LiveActivityID(rawValue: "ride_7:driver-2.b")!
    static let now = Date(timeIntervalSince1970: 1_796_083_200)
    static let context = DeliveryContext(deviceToken: "ab12", messageID: "m1", deliveryID: "3f2a8c1e-6b4d-4e8f-9a7b-1c2d3e4f5a6b", receiptSignature: "sig", now: now)

    static func start(attributes: [String: JSONValue] = ["driver": "Anna"]) -> LiveActivityMessage {
        LiveActivityMessage(event: .start, contentState: ["eta": 5], attributesType: "RideAttributes", attributes: attributes)
    }

    @Test func startCarriesTheActivityIDInItsAttributesOnBothPlatforms() throws {
        let apns = try LiveActivityAPNsRenderer(message: Self.start(), activityID: Self.id, bundleID: "com.example.ride", now: Self.now)
            .render(Self.context, timestamp: 1_796_083_201)
        let aps = try #require((try JSONSerialization.jsonObject(with: Data(apns.body)) as? [String: Any])?["aps"] as? [String: Any])
        #expect(aps["attributes"] as? [String: String] == ["driver": "Anna", "notibaseActivityID": "ride_7:driver-2.b"])
        #expect(aps["attributes-type"] as? String == "RideAttributes")
        let fcm = try LiveActivityFCMRenderer(message: Self.start(), activityID: Self.id, now: Self.now).render(Self.context, timestamp: 1_796_083_201)
        let data = try #require((try JSONSerialization.jsonObject(with: Data(fcm.body)) as? [String: Any]).flatMap { ($0["message"] as? [String: Any])?["data"] as? [String: String] })
        #expect(data["nb_live_attributes"] == #"{"driver":"Anna","notibaseActivityID":"ride_7:driver-2.b"}"#)
        #expect(data["nb_live_activity_id"] == "ride_7:driver-2.b")
    }

    @Test func apnsHeadersAreApplesForLiveActivities() throws {
        var message = LiveActivityMessage(event: .update, contentState: ["eta": 3])
        let high = try LiveActivityAPNsRenderer(message: message, activityID: Self.id, bundleID: "com.example.ride", now: Self.now).render(Self.context, timestamp: 1)
        #expect(high.headers == [
            HTTPHeader("apns-push-type", "liveactivity"), HTTPHeader("apns-priority", "10"),
            HTTPHeader("apns-topic", "com.example.ride.push-type.liveactivity"), HTTPHeader("apns-id", "3f2a8c1e-6b4d-4e8f-9a7b-1c2d3e4f5a6b"),
        ])
        message.priority = .normal
        let low = try LiveActivityAPNsRenderer(message: message, activityID: Self.id, bundleID: nil, now: Self.now).render(Self.context, timestamp: 1)
        #expect(low.header("apns-priority") == "5")
        #expect(low.header("apns-topic") == nil, "left to the sender, which adds the suffix to the bundle ID")
    }

    @Test func fcmIsCollapsedByActivityAndNormalForNormalPriority() throws {
        let message = LiveActivityMessage(event: .update, contentState: ["eta": 3], priority: .normal)
        let request = try LiveActivityFCMRenderer(message: message, activityID: Self.id, now: Self.now).render(Self.context, timestamp: 1)
        let android = try #require((try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]).flatMap { ($0["message"] as? [String: Any])?["android"] as? [String: String] })
        #expect(android == ["priority": "NORMAL", "collapse_key": "ride_7:driver-2.b"])
    }

    @Test func androidTextComesFromTheDisplayThenTheAlert() {
        var message = LiveActivityMessage(event: .update, contentState: [:], alert: LiveActivityAlert(title: "Alert title", body: "Alert body"))
        #expect(message.androidTitle == "Alert title")
        message.display = LiveActivityDisplay(title: "Shown title")
        #expect(message.androidTitle == "Shown title")
        #expect(message.androidBody == "Alert body")
    }

    @Test func anInvalidEventIsNotRendered() {
        let message = LiveActivityMessage(event: .update, contentState: [:], dismissalDate: Self.now)
        #expect(throws: RenderError.self) {
            try LiveActivityAPNsRenderer(message: message, activityID: Self.id, bundleID: "b", now: Self.now)
        }
        do {
            _ = try LiveActivityFCMRenderer(message: message, activityID: Self.id, now: Self.now)
            Issue.record("rendered an update with a dismissal date")
        } catch {
            #expect(error.validationError?.issues.map(\.field) == ["dismissalDate"])
        }
    }
}
