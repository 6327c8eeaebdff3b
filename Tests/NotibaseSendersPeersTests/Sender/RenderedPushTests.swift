import Foundation
import NotibaseCore
import Testing
@testable import NotibaseSenders

extension PeerTests {
    /// The chain the server's workers run: the core renders, the sender sends that request as is.
    @Suite("Pushes rendered by the core, sent as they are")
    struct RenderedPushTests {
        private let message = Message(
            title: "Order shipped", body: "Your parcel is on its way.",
            buttons: [Button(id: "track", text: "Track order", url: "shop://orders/1/track"), Button(id: "cancel", text: "Cancel", options: [.destructive])],
            imageURL: "https://cdn.example.com/1.jpg", collapseID: "order-1", ttl: 3600, data: ["orderId": 1])

        @Test("an APNs request from APNsRenderer passes the peer's checks and is sent, headers and body unchanged")
        func apns() async throws {
            let fixture = try await APNsFixture.start()
            let token = deviceToken(42)
            let deliveryID = UUID().uuidString.lowercased()
            let request = try APNsRenderer(message: message, topic: "com.example.app")
                .render(DeliveryContext(deviceToken: token, messageID: "msg_1", deliveryID: deliveryID))
            let sender = fixture.sender()
            let outcomes = await sender.send([Push(deliveryID: deliveryID, request: .apns(request), credentials: .apns(fixture.credentials))])
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.sent])
            let logged = try #require(try fixture.peer.requests(for: token).first)
            #expect(logged["body_size"] as? Int == request.body.count)
            let headers = try #require(logged["headers"] as? [String: Any])
            for header in request.headers {
                #expect(headers[header.name] as? String == header.value, "\(header.name) sent as rendered")
            }
        }

        @Test("an FCM request from FCMRenderer is sent to the project's messages:send")
        func fcm() async throws {
            let fixture = try await FCMFixture.start()
            let token = registrationToken(42)
            let request = try FCMRenderer(message: message).render(DeliveryContext(deviceToken: token, messageID: "msg_1", deliveryID: "d-1"))
            let sender = fixture.sender()
            let outcomes = await sender.send([Push(deliveryID: "d-1", request: .fcm(request), credentials: .fcm(fixture.credentials))])
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.sent])
            let logged = try #require(try fixture.peer.messageRequests(for: token).first)
            #expect(logged["body_size"] as? Int == request.body.count)
        }

        private let silent = Message(collapseID: "sync", ttl: 600, priority: .high, data: ["sync": "inbox"], background: true)

        @Test("a background push from APNsRenderer passes the peer's background checks: push type background, priority 5, a silent aps")
        func apnsBackground() async throws {
            let fixture = try await APNsFixture.start()
            let token = deviceToken(43)
            let deliveryID = UUID().uuidString.lowercased()
            let request = try APNsRenderer(message: silent, topic: "com.example.app")
                .render(DeliveryContext(deviceToken: token, messageID: "msg_1", deliveryID: deliveryID, receiptSignature: "sig"))
            var loud = request
            loud.headers = loud.headers.map { $0.name == "apns-priority" ? HTTPHeader("apns-priority", "10") : $0 }
            var drawn = request
            drawn.body = Array(#"{"aps":{"content-available":1,"sound":"default"}}"#.utf8)
            let sender = fixture.sender()
            let outcomes = await sender.send([
                Push(deliveryID: deliveryID, request: .apns(request), credentials: .apns(fixture.credentials)),
                Push(deliveryID: "loud", request: .apns(loud), credentials: .apns(fixture.credentials)),
                Push(deliveryID: "drawn", request: .apns(drawn), credentials: .apns(fixture.credentials)),
            ])
            await sender.shutdown()
            // The peer is strict: the same push at priority 10, or with a sound, is refused.
            #expect(outcomes.map(\.disposition) == [.sent, .failed, .failed])
            #expect(outcomes.map(\.providerReason) == [nil, "BadPriority", "BadBackgroundPayload"])
            let logged = try #require(try fixture.peer.requests(for: token).first)
            let headers = try #require(logged["headers"] as? [String: Any])
            #expect(headers["apns-push-type"] as? String == "background")
            #expect(headers["apns-priority"] as? String == "5")
        }

        @Test("a background push from FCMRenderer is a data-only message at NORMAL priority")
        func fcmBackground() async throws {
            let fixture = try await FCMFixture.start()
            let token = registrationToken(43)
            let request = try FCMRenderer(message: silent).render(DeliveryContext(deviceToken: token, messageID: "msg_1", deliveryID: "d-1"))
            let sender = fixture.sender()
            let outcomes = await sender.send([Push(deliveryID: "d-1", request: .fcm(request), credentials: .fcm(fixture.credentials))])
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.sent])
            let answer = try #require(try fixture.peer.messageRequests(for: token).first?["answer"] as? [String: Any])
            #expect(answer["android_priority"] as? String == "NORMAL")
            #expect(answer["has_notification"] as? Bool == false)
        }
    }
}
