import Foundation
import NotibaseCore
import NotibaseSimulator
import NotibaseTestSupport
import Testing
@testable import Notibase

/// Issue 46: a silent background push reaches the app, not the screen; the app's call reports it
/// as `received`, and the delivery log never says `rendered`.
@Suite("Silent background pushes (iOS SDK)")
struct BackgroundPushTests {
    static let token = String(repeating: "6b", count: 32)

    @Test func theAppReportsABackgroundPushAsReceivedAndNothingIsDrawn() async throws {
        let world = try await LiveWorld.start()
        let phone = world.fleet.addIPhone(name: "Syncing iPhone", token: Self.token)
        let client = world.client(for: phone)
        client.registerDeviceToken(Data(repeating: 0x6b, count: 32))
        #expect(await client.flushNow())

        let sent = try await world.call("POST", "/v1/messages", body: [
            "message": ["background": true, "data": ["sync": "inbox"]], "audience": ["all": true],
        ])
        let id = try #require(sent["id"].string)
        _ = try await world.waitFor("/v1/messages/\(id)") { $0["state"].string == "completed" }
        try await waitUntil { !phone.backgroundPushes.isEmpty }
        let body = try #require(phone.backgroundPushes.first)
        let userInfo = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [AnyHashable: Any])
        #expect(userInfo["sync"] as? String == "inbox")

        // application(_:didReceiveRemoteNotification:fetchCompletionHandler:)
        #expect(client.handleBackgroundPush(userInfo))
        #expect(await client.flushNow())
        let log = try await world.waitFor("/v1/messages/\(id)/deliveries") { $0["items"].array.first?["state"].string == "received" }
        let events = log["items"].array.first?["history"].array.compactMap { $0["event"].string } ?? []
        #expect(events.contains("received") && events.contains("sent"))
        #expect(!events.contains("rendered"))
        let funnel = try await world.call("GET", "/v1/messages/\(id)/funnel")
        #expect(funnel["received"].int == 1 && funnel["rendered"].int == 0)
        await world.fleet.waitUntilIdle()
        #expect(phone.drawn.isEmpty)
        await world.stop()
    }

    @Test func theSimulatedAndroidHandsItToTheAppAndReportsItReceived() async throws {
        let world = try await LiveWorld.start()
        let phone = world.fleet.addAndroid(name: "Syncing Pixel", token: "fcm-simulated-android-0046")
        _ = try await world.call("POST", "/v1/devices", key: world.clientKey, body: ["platform": "android", "token": "fcm-simulated-android-0046"])
        let sent = try await world.call("POST", "/v1/messages", body: [
            "message": ["background": true, "data": ["sync": "inbox"]], "audience": ["all": true],
        ])
        let id = try #require(sent["id"].string)
        let log = try await world.waitFor("/v1/messages/\(id)/deliveries") { $0["items"].array.first?["state"].string == "received" }
        let events = log["items"].array.first?["history"].array.compactMap { $0["event"].string } ?? []
        #expect(!events.contains("rendered"))
        #expect(phone.backgroundPushes == [["sync": "inbox"]])
        #expect(phone.drawn.isEmpty)
        await world.stop()
    }

    @Test func anAlertIsNotABackgroundPush() {
        let client = NotibaseClient(configuration: NotibaseConfiguration(
            serverURL: URL(string: "http://127.0.0.1:1")!, clientKey: "nb_client_x",
            stateDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("nb-bg-\(UUID().uuidString)")))
        let alert: [AnyHashable: Any] = ["aps": ["alert": ["title": "Hi"], "content-available": 1], "nb_delivery": "d-1", "nb_sig": "s"]
        #expect(!client.handleBackgroundPush(alert))
        let notOurs: [AnyHashable: Any] = ["aps": ["content-available": 1]]
        #expect(!client.handleBackgroundPush(notOurs))
        let ours: [AnyHashable: Any] = ["aps": ["content-available": 1], "nb_delivery": "d-1", "nb_message": "m-1", "nb_sig": "s"]
        #expect(client.handleBackgroundPush(ours))
    }
}
