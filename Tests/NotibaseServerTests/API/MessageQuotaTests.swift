import Foundation
import NotibaseCore
import Testing
@testable import NotibaseServer
@testable import NotibaseDomain
@testable import NotibaseStore
@testable import NotibaseSQLite
@testable import NotibasePostgres
@testable import NotibaseHTTP
@testable import NotibaseOutbound
@testable import NotibaseWebhooks
@testable import NotibaseServices
@testable import NotibaseAPI
@testable import NotibaseDelivery
@testable import NotibaseServerTestSupport

/// `--app-messages-per-minute`: each app creates at most so many messages a minute, whichever of
/// its keys it uses; other apps are not affected.
@Suite("Per-app message quota")
struct MessageQuotaTests {
    static let message = #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#

    private static func post(_ harness: Harness, _ key: String, idempotencyKey: String? = nil) async -> Reply {
        await harness.request("POST", "/v1/messages", key: key, body: message, headers: idempotencyKey.map { ["Idempotency-Key": $0] } ?? [:])
    }

    @Test func overTheQuotaIs429NamingTheLimitWithRetryAfter() async throws {
        let harness = try await Harness(messagesPerMinute: 3)
        let app = try await harness.createApp()
        for _ in 1...3 { #expect(await Self.post(harness, app.serverKey).status == 202) }
        let refused = await Self.post(harness, app.serverKey)
        #expect(refused.status == 429, "\(refused.text)")
        #expect(refused.errorCode == "quota_exceeded")
        #expect(refused["error"]["limit"].string == "messagesPerMinute")
        #expect(refused["error"]["message"].string?.contains("3 messages a minute") == true, "\(refused.text)")
        // 3 a minute refill one every 20 s.
        #expect(refused.headers["retry-after"] == "20")
        #expect(await harness.request("GET", "/v1/messages", key: app.serverKey)["items"].array.count == 3)
        harness.advance(19)
        #expect(await Self.post(harness, app.serverKey).status == 429)
        harness.advance(1)
        #expect(await Self.post(harness, app.serverKey).status == 202)
        #expect(await Self.post(harness, app.serverKey).status == 429)
    }

    @Test func rotatingTheKeyDoesNotResetIt() async throws {
        let harness = try await Harness(messagesPerMinute: 2)
        let app = try await harness.createApp()
        for _ in 1...2 { #expect(await Self.post(harness, app.serverKey).status == 202) }
        let rotated = await harness.request("POST", "/v1/apps/\(app.id)/keys/server/rotate", key: Harness.adminKey)
        let newKey = try #require(rotated["key"].string)
        #expect(await Self.post(harness, newKey).errorCode == "quota_exceeded")
    }

    @Test func otherAppsAreUnaffected() async throws {
        let harness = try await Harness(messagesPerMinute: 2)
        let busy = try await harness.createApp("Busy")
        let quiet = try await harness.createApp("Quiet")
        for _ in 1...3 { _ = await Self.post(harness, busy.serverKey) }
        #expect(await Self.post(harness, busy.serverKey).status == 429)
        for _ in 1...2 { #expect(await Self.post(harness, quiet.serverKey).status == 202) }
    }

    @Test func anIdempotentReplayIsNotCharged() async throws {
        let harness = try await Harness(messagesPerMinute: 2)
        let app = try await harness.createApp()
        let first = await Self.post(harness, app.serverKey, idempotencyKey: "order-42")
        #expect(first.status == 202)
        for _ in 1...3 {
            let replay = await Self.post(harness, app.serverKey, idempotencyKey: "order-42")
            #expect(replay.status == 202 && replay["replayed"].bool == true && replay["id"] == first["id"], "\(replay.text)")
        }
        #expect(await Self.post(harness, app.serverKey).status == 202)
        #expect(await Self.post(harness, app.serverKey).status == 429)
    }

    @Test func aRefusedSendIsNotCharged() async throws {
        let harness = try await Harness(messagesPerMinute: 1)
        let app = try await harness.createApp()
        let tooLate = #"{"message": {"title": "Hi"}, "audience": {"all": true}, "sendAt": "2099-01-01T00:00:00Z"}"#
        #expect(await harness.request("POST", "/v1/messages", key: app.serverKey, body: tooLate)["error"]["field"].string == "sendAt")
        #expect(await Self.post(harness, app.serverKey).status == 202)
    }

    @Test func zeroIsNoLimit() async throws {
        let harness = try await Harness(messagesPerMinute: 0)
        let app = try await harness.createApp()
        for _ in 1...5 { #expect(await Self.post(harness, app.serverKey).status == 202) }
    }
}

/// `--app-stored-bytes`: the bytes an app's stored messages take, counted by the database.
@Suite("Per-app stored bytes")
struct StoredBytesQuotaTests {
    @Test func overTheStoredBytesIs429NamingTheLimitAndStoresNothing() async throws {
        let harness = try await Harness(storedBytes: 1_800)
        let app = try await harness.createApp()
        let other = try await harness.createApp("Other")
        let device = try await harness.registerDevice(app, number: 1)
        let body = { (text: String) in
            #"{"message": {"title": "Hi", "body": "\#(String(repeating: text, count: 600))"}, "audience": {"deviceIds": ["\#(device)"]}}"#
        }
        #expect(await harness.request("POST", "/v1/messages", key: app.serverKey, body: body("a")).status == 202)
        #expect(await harness.request("POST", "/v1/messages", key: app.serverKey, body: body("b")).status == 202)
        // The third would take the app past 1,800 bytes; the same for a scheduled one (another path).
        for refusedBody in [body("c"), #"{"message": {"title": "\#(String(repeating: "d", count: 2_500))"}, "audience": {"all": true}, "sendAt": "2027-01-16T00:00:00Z"}"#] {
            let refused = await harness.request("POST", "/v1/messages", key: app.serverKey, body: refusedBody)
            #expect(refused.status == 429 && refused.errorCode == "quota_exceeded", "\(refused.status) \(refused.text)")
            #expect(refused["error"]["limit"].string == "storedBytes")
        }
        #expect(await harness.request("GET", "/v1/messages", key: app.serverKey)["items"].array.count == 2)
        #expect(await harness.request("POST", "/v1/messages", key: other.serverKey, body: #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#).status == 202)
    }
}
