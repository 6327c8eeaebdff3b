import Foundation
import Testing
@testable import NotibaseCore

/// Each Live Activity fixture (`Fixtures/render/*.live.json`) is rendered for APNs and FCM with a
/// fixed activity ID, timestamp and device context, and compared byte for byte with its golden
/// file (NOTIBASE_UPDATE_GOLDEN=1 writes them, as for messages).
@Suite("Golden Live Activity requests")
struct LiveActivityGoldenTests {
    static let names: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: GoldenRenderingTests.fixtures.path)) ?? []
        return files.filter { $0.hasSuffix(".live.json") }.map { String($0.dropLast(".live.json".count)) }.sorted()
    }()

    static let activityID = LiveActivityID(rawValue: "order-A-1042")!
    static let timestamp = 1_796_083_260
    static var context: DeliveryContext { GoldenRenderingTests.context }

    @Test func everyEventWithAndWithoutAlert() {
        #expect(Set(Self.names).isSuperset(of: ["live-start", "live-start-alert", "live-update", "live-update-alert", "live-end", "live-end-alert"]))
    }

    @Test(arguments: names)
    func apns(_ name: String) throws {
        let message = try Self.load(name)
        let request = try LiveActivityAPNsRenderer(message: message, activityID: Self.activityID, bundleID: "com.example.shop", now: Self.context.now)
            .render(Self.context, timestamp: Self.timestamp)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
        #expect(Array(body.keys) == ["aps"], "nothing but aps: the app never sees a Live Activity payload")
        let aps = try #require(body["aps"] as? [String: Any])
        #expect(aps["timestamp"] as? Int == Self.timestamp)
        #expect(aps["event"] as? String == message.event.rawValue)
        #expect((aps["input-push-token"] as? Int == 1) == (message.event == .start))
        try GoldenRenderingTests.compare(
            GoldenRenderingTests.format(path: request.path, headers: request.headers, body: request.body), golden: "\(name).apns.golden")
    }

    @Test(arguments: names)
    func fcm(_ name: String) throws {
        let message = try Self.load(name)
        let request = try LiveActivityFCMRenderer(message: message, activityID: Self.activityID, now: Self.context.now)
            .render(Self.context, timestamp: Self.timestamp)
        let body = try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
        let data = try #require((body?["message"] as? [String: Any])?["data"] as? [String: String])
        #expect(data["nb_live"] == "1")
        #expect(data["nb_live_timestamp"] == String(Self.timestamp))
        #expect(FCMRenderer.dataSize(of: data.map { ($0.key, $0.value) }) <= FCMRenderer.payloadLimit)
        try GoldenRenderingTests.compare(
            GoldenRenderingTests.format(path: "/v1/projects/PROJECT_ID/messages:send", headers: [], body: request.body), golden: "\(name).fcm.golden")
    }

    static func load(_ name: String) throws -> LiveActivityMessage {
        try JSONDecoder().decode(LiveActivityMessage.self, from: Data(contentsOf: GoldenRenderingTests.fixtures.appendingPathComponent("\(name).live.json")))
    }
}
