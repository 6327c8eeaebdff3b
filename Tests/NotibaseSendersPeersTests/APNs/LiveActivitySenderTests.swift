import Foundation
import NotibaseCore
import Testing
@testable import NotibaseSenders

extension PeerTests {
    @Suite("Live Activity pushes through the APNs sender")
    struct LiveActivitySenderTests {
        static let activityID = LiveActivityID(rawValue: "order-A-1042")!

        static let start = LiveActivityMessage(
            event: .start, contentState: ["status": "preparing"], attributesType: "DeliveryAttributes", attributes: ["orderNumber": "A-1042"],
            alert: LiveActivityAlert(title: "Order A-1042", body: "Preparing"))
        static let update = LiveActivityMessage(event: .update, contentState: ["status": "on the way"], staleDate: Date().addingTimeInterval(600), priority: .normal)
        static let end = LiveActivityMessage(event: .end, contentState: ["status": "delivered"], dismissalDate: Date().addingTimeInterval(60))

        /// A push of `message` rendered by the core; `bundleID` nil leaves the topic to the sender.
        static func push(_ message: LiveActivityMessage, to token: String, bundleID: String?, timestamp: Int, credentials: APNsCredentials) throws -> Push {
            let id = UUID().uuidString.lowercased()
            let request = try LiveActivityAPNsRenderer(message: message, activityID: activityID, bundleID: bundleID)
                .render(DeliveryContext(deviceToken: token, deliveryID: id), timestamp: timestamp)
            return Push(deliveryID: id, request: .apns(request), credentials: .apns(credentials))
        }

        @Test("start, update and end rendered by the core are accepted by a peer that checks them as Apple documents")
        func startUpdateEnd() async throws {
            let fixture = try await APNsFixture.start(script: ["topics": ["com.example.app"]])
            let sender = fixture.sender()
            let now = Int(Date().timeIntervalSince1970)
            var outcomes: [SendOutcome] = []
            for (offset, (message, bundleID)) in [(Self.start, "com.example.app"), (Self.update, nil), (Self.end, nil)].enumerated() {
                let push = try Self.push(message, to: deviceToken(offset + 1), bundleID: bundleID, timestamp: now + offset, credentials: fixture.credentials)
                outcomes += await sender.send([push])
            }
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.sent, .sent, .sent], "\(outcomes.map { $0.providerReason ?? "" })")
            let headers = try fixture.peer.requests().compactMap { $0["headers"] as? [String: String] }
            #expect(headers.map { $0["apns-push-type"] } == ["liveactivity", "liveactivity", "liveactivity"])
            #expect(headers.map { $0["apns-topic"] } == Array(repeating: "com.example.app.push-type.liveactivity", count: 3))
            #expect(headers.map { $0["apns-priority"] } == ["10", "5", "10"])
            #expect(headers.allSatisfy { $0["authorization"]?.hasPrefix("bearer ") == true })
        }

        @Test("the peer refuses a Live Activity push Apple would not take: no topic suffix, priority 1, a dismissal date on an update, no content state")
        func peerIsStrict() async throws {
            let fixture = try await APNsFixture.start()
            let sender = fixture.sender()
            let update = #"{"aps":{"timestamp":1796083200,"event":"update","content-state":{}}}"#
            let cases: [(topic: String, priority: String, body: String, reason: String)] = [
                ("com.example.app", "10", update, "BadTopic"),
                ("com.example.app.push-type.liveactivity", "1", update, "BadPriority"),
                ("com.example.app.push-type.liveactivity", "10", #"{"aps":{"timestamp":1796083200,"event":"update","content-state":{},"dismissal-date":1}}"#, "BadLiveActivityPayload"),
                ("com.example.app.push-type.liveactivity", "10", #"{"aps":{"timestamp":1796083200,"event":"update"}}"#, "BadLiveActivityPayload"),
                ("com.example.app.push-type.liveactivity", "10", #"{"aps":{"event":"start","content-state":{},"timestamp":1,"attributes":{}}}"#, "BadLiveActivityPayload"),
                ("com.example.app.push-type.liveactivity", "10", update, ""),
            ]
            let pushes = cases.enumerated().map { index, item in
                let id = UUID().uuidString.lowercased()
                let request = APNsRequest(deviceToken: deviceToken(index), headers: [
                    HTTPHeader("apns-push-type", "liveactivity"), HTTPHeader("apns-priority", item.priority),
                    HTTPHeader("apns-topic", item.topic), HTTPHeader("apns-id", id),
                ], body: Array(item.body.utf8))
                return Push(deliveryID: id, request: .apns(request), credentials: .apns(fixture.credentials))
            }
            let outcomes = await sender.send(pushes)
            await sender.shutdown()
            #expect(outcomes.map { $0.providerReason ?? "" } == cases.map(\.reason))
            #expect(outcomes.last?.disposition == .sent)
        }

        @Test("with certificate credentials a Live Activity push is refused by the sender before anything is sent; the app's alerts still go")
        func certificateRefused() async throws {
            let keys = try await APNsFixture.start()
            let peer = try await TestPeer.start(.apns, arguments: ["--require-client-certificate"])
            let credentials = try peer.certificateCredentials()
            let sender = peer.apnsSender()
            let live = try Self.push(Self.update, to: deviceToken(1), bundleID: "com.example.app", timestamp: 1_796_083_200, credentials: credentials)
            let outcomes = await sender.send([live, keys.push(deviceToken(2), credentials: credentials)])
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.failed, .sent])
            #expect(outcomes.first?.explanation?.contains("Apple accepts only token authentication for Live Activity pushes") == true)
            #expect(try peer.requests().map { ($0["headers"] as? [String: String])?["apns-push-type"] } == ["alert"])
        }

        @Test("an update token APNs says is gone (410 Unregistered, 400 BadDeviceToken) deactivates, as for alerts")
        func goneToken() async throws {
            let fixture = try await APNsFixture.start(script: ["tokens": [
                deviceToken(1): [["status": 410, "reason": "Unregistered", "timestamp": 1_796_083_200_000]],
                deviceToken(2): [["status": 400, "reason": "BadDeviceToken"]],
            ]])
            let sender = fixture.sender()
            let pushes = try (1...2).map { try Self.push(Self.update, to: deviceToken($0), bundleID: nil, timestamp: 1_796_083_200, credentials: fixture.credentials) }
            let outcomes = await sender.send(pushes)
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.deactivateDevice, .deactivateDevice])
            #expect(outcomes.first?.tokenInvalidSince == Date(timeIntervalSince1970: 1_796_083_200))
        }
    }
}
