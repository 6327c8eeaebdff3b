import Foundation
import Testing
@testable import NotibaseCore

@Suite("Live Activity validation")
struct LiveActivityValidationTests {
    static let now = Date(timeIntervalSince1970: 1_796_083_200)  // 2026-12-01T00:00:00Z

    static func errors(_ message: LiveActivityMessage, activityID: String? = "order-1", platforms: Set<Platform> = Set(Platform.allCases)) -> [String] {
        message.validate(activityID: activityID, for: platforms, now: now).filter { $0.severity == .error }.map { "\($0.field) \($0.code)" }
    }

    static let start = LiveActivityMessage(event: .start, contentState: ["status": "ready"], attributesType: "DeliveryAttributes", attributes: [:])
    static let update = LiveActivityMessage(event: .update, contentState: ["status": "ready"])

    @Test func wellFormedEventsHaveNoErrors() {
        #expect(Self.errors(Self.start).isEmpty)
        #expect(Self.errors(Self.update).isEmpty)
        #expect(Self.errors(LiveActivityMessage(event: .end, contentState: [:], dismissalDate: Self.now)).isEmpty)
    }

    @Test(arguments: ["", String(repeating: "a", count: 65), "order 1", "order/1", "ordér"])
    func activityIDSyntax(_ id: String) {
        #expect(Self.errors(Self.update, activityID: id) == ["activityId invalid_activity_id"])
        #expect(LiveActivityID(rawValue: id) == nil)
    }

    @Test func activityIDsOfTheContractAreAccepted() {
        for id in ["a", String(repeating: "Z", count: 64), "order_1.2:3-4"] {
            #expect(LiveActivityID(rawValue: id)?.rawValue == id)
        }
        #expect(LiveActivityID(rawValue: LiveActivityID.random().rawValue) != nil)
    }

    @Test func startNeedsItsAttributesAndOnlyStartHasThem() {
        #expect(Self.errors(LiveActivityMessage(event: .start, contentState: [:])) == ["attributesType required", "attributes required"])
        var update = Self.update
        update.attributesType = "DeliveryAttributes"
        update.attributes = ["a": 1]
        #expect(Self.errors(update) == ["attributesType start_only", "attributes start_only"])
    }

    @Test func theAttributesTypeIsASwiftTypeName() {
        for name in ["", "Delivery Attributes", "9Lives", "Module.Type", String(repeating: "A", count: 129)] {
            var start = Self.start
            start.attributesType = name
            #expect(Self.errors(start) == ["attributesType invalid_type_name"], "\(name)")
        }
    }

    @Test func theActivityIDKeyInAttributesIsNotebases() {
        var start = Self.start
        start.attributes = ["notibaseActivityID": "other"]
        #expect(Self.errors(start) == ["attributes.notibaseActivityID reserved_key"])
        start.attributes = ["notibaseActivityID": "order-1"]
        #expect(Self.errors(start).isEmpty, "the same ID is harmless")
    }

    @Test func dismissalDateOnlyOnEnd() {
        var update = Self.update
        update.dismissalDate = Self.now
        #expect(Self.errors(update) == ["dismissalDate end_only"])
    }

    @Test func datesAreSane() {
        var update = Self.update
        update.staleDate = Date(timeIntervalSince1970: 0)
        #expect(Self.errors(update) == ["staleDate out_of_range"])
        update.staleDate = Self.now.addingTimeInterval(400 * 86_400)
        #expect(Self.errors(update) == ["staleDate out_of_range"])
        update.staleDate = Self.now.addingTimeInterval(-3600)
        #expect(Self.errors(update).isEmpty, "a past stale date makes the activity stale at once")
        let end = LiveActivityMessage(event: .end, contentState: [:], dismissalDate: LiveActivityMessage.earliestDate)
        #expect(Self.errors(end).isEmpty, "2001-01-01 ends it at once")
    }

    @Test func numbersAreInRange() {
        var update = Self.update
        update.relevanceScore = .infinity
        update.display = LiveActivityDisplay(progress: 1.5)
        #expect(Self.errors(update) == ["relevanceScore out_of_range", "display.progress out_of_range"])
        update.relevanceScore = 1000
        update.display = LiveActivityDisplay(progress: 0)
        #expect(Self.errors(update).isEmpty)
    }

    @Test func anAlertHasText() {
        var update = Self.update
        update.alert = LiveActivityAlert(sound: "")
        #expect(Self.errors(update) == ["alert missing_text", "alert.sound empty"])
    }

    @Test func unknownEventsAreRefused() {
        #expect(Self.errors(LiveActivityMessage(event: LiveActivityEvent(rawValue: "pause"), contentState: [:])) == ["event unknown_value"])
    }

    @Test func androidWithoutTextIsAWarningForAndroidOnly() {
        let issues = Self.update.validate(activityID: "order-1", now: Self.now)
        #expect(issues.map(\.code) == ["missing_text"])
        #expect(issues.first?.severity == .warning && issues.first?.platform == .android)
        #expect(Self.update.validate(activityID: "order-1", for: [.ios], now: Self.now).isEmpty)
    }

    @Test func theContentStateNestsAtMost32Levels() {
        var deep: JSONValue = 1
        for _ in 0..<32 { deep = ["n": deep] }
        #expect(Self.errors(LiveActivityMessage(event: .update, contentState: ["n": deep])).isEmpty)
        #expect(Self.errors(LiveActivityMessage(event: .update, contentState: ["n": ["n": deep]])) == ["contentState too_deep"])
    }

    @Test func aPayloadOverAPNsAndFCMsLimitIsNamedPerPlatform() throws {
        let large = LiveActivityMessage(event: .update, contentState: ["notes": .string(String(repeating: "x", count: 4000))], alert: .init(title: "Hi"))
        let issues = large.validate(activityID: "order-1", now: Self.now).filter { $0.severity == .error }
        #expect(issues.map { "\($0.field) \($0.code) \($0.platform.map(\.rawValue) ?? "")" } == [
            "contentState payload_too_large ios", "contentState payload_too_large android",
        ])
        #expect(issues.first?.message.contains("4096-byte limit") == true)
        // Just within APNs: rendered, and exactly as large as validation measured.
        let fits = try Self.largestFitting()
        let request = try LiveActivityAPNsRenderer(message: fits, activityID: LiveActivityID(rawValue: "order-1")!, bundleID: "b", now: Self.now)
            .render(DeliveryContext(deviceToken: "t", now: Self.now), timestamp: 9_999_999_999)
        #expect(request.body.count == LiveActivityAPNsRenderer.payloadLimit)
    }

    /// An update whose APNs payload is exactly 4096 bytes with a ten-digit timestamp.
    static func largestFitting() throws -> LiveActivityMessage {
        var message = LiveActivityMessage(event: .update, contentState: ["notes": ""])
        let empty = LiveActivityAPNsRenderer.payload(of: message, activityID: "order-1", timestamp: 9_999_999_999).count
        message.contentState["notes"] = .string(String(repeating: "y", count: LiveActivityAPNsRenderer.payloadLimit - empty))
        #expect(Self.errors(message, platforms: [.ios]).isEmpty)
        var over = message
        over.contentState["notes"] = .string(String(repeating: "y", count: LiveActivityAPNsRenderer.payloadLimit - empty + 1))
        #expect(Self.errors(over, platforms: [.ios]) == ["contentState payload_too_large"])
        return message
    }
}
