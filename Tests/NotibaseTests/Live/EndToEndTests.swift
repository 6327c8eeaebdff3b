import Foundation
import Testing
import NotibaseCore
import NotibaseSimulator
import NotibaseExtension
import NotibaseTestSupport
@preconcurrency import UserNotificationsShim
@testable import Notibase

/// The whole loop against a live server: the SDK registers the device, the server sends a message
/// with buttons and deep links, the extension renders it, the user taps a button, and the delivery
/// log tells all of it.
@Suite("The app SDK against a live server", .serialized)
struct EndToEndTests {
    /// The app's notification delegate: hands every response to the SDK and records where to go.
    final class Delegate: NSObject, UNUserNotificationCenterDelegate, @unchecked Sendable {
        // @unchecked Sendable: `destinations` is guarded by `lock`.
        let client: NotibaseClient
        private let lock = NSLock()
        private var destinations: [URL?] = []
        init(client: NotibaseClient) { self.client = client }
        var opened: [URL?] { lock.withLock { destinations } }
        func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
                                    withCompletionHandler completionHandler: @escaping () -> Void) {
            let destination = client.handle(response)
            lock.withLock { destinations.append(destination) }
            completionHandler()
        }
    }

    static let token = String(repeating: "ab", count: 32)

    @Test func registerSendRenderTapAndReadTheLog() async throws {
        let world = try await LiveWorld.start()
        let phone = world.fleet.addIPhone(name: "iPhone", token: Self.token)
        let client = world.client(for: phone)
        let delegate = Delegate(client: client)
        phone.device.center.delegate = delegate

        // The app's backend gets the user's identity token; without it the app (which requires
        // identity verification, as new apps do) would not target this device as user-42.
        let identity = try await world.call("POST", "/v1/identity-tokens", body: ["externalUserId": "user-42"])
        client.setExternalUserID("user-42", token: identity["token"].string)
        client.registerDeviceToken(Data(repeating: 0xab, count: 32))
        #expect(await client.flushNow())
        let devices = try await world.call("GET", "/v1/devices?externalUserId=user-42")
        let device = try #require(devices["items"].array.first)
        #expect(device["token"].string == Self.token)
        #expect(device["sdkVersion"].string == NotibaseConfiguration.sdkVersion)

        let sent = try await world.call("POST", "/v1/messages", body: [
            "message": [
                "title": "Order shipped", "body": "Arrives Thursday", "url": "shop://orders/42",
                "buttons": [["id": "track", "text": "Track", "url": "shop://orders/42/track"], ["id": "later", "text": "Later", "options": []]],
            ],
            "audience": ["externalUserIds": ["user-42"]],
        ])
        let messageID = try #require(sent["id"].string)

        // The extension renders it and reports.
        let rendered = try await world.waitFor("/v1/messages/\(messageID)/deliveries") { answer in
            Self.events(answer).contains("rendered")
        }
        let drawn = try #require(phone.drawn.first)
        #expect(drawn.buttons.map(\.identifier) == ["track", "later"])
        let render = Self.history(rendered).first { $0["event"].string == "rendered" }?["render"]
        #expect(render?["buttons"] == ["track", "later"])

        // The user taps "Track": the app opens the button's link and reports the action.
        try await phone.device.tap(button: "track", inNotification: drawn.requestIdentifier)
        #expect(delegate.opened == [URL(string: "shop://orders/42/track")])
        _ = await client.flushNow()
        let log = try await world.waitFor("/v1/messages/\(messageID)/deliveries") { answer in
            Self.events(answer).contains("opened")
        }
        #expect(Self.events(log) == ["queued", "sent", "rendered", "action", "opened"])
        let action = Self.history(log).first { $0["event"].string == "action" }
        #expect(action?["actionId"].string == "track")
        await world.stop()
    }

    /// A device offline at first registers once the server is there, even after the app was
    /// relaunched; a new token replaces the old one.
    @Test func anOfflineDeviceRegistersOnceTheServerIsBack() async throws {
        let files = TemporaryDirectory("notibase-offline")
        let state = files.url.appendingPathComponent("app")
        // First launch, offline (nothing answers at the server's address): the registration waits
        // on disk. This launch's own background retries can only fail, whenever they run.
        var configuration = NotibaseConfiguration(
            serverURL: URL(string: "http://127.0.0.1:1")!, clientKey: "nb_client_not-known-yet", sharedDirectory: files.url,
            stateDirectory: state)
        configuration.initialRetryDelay = .milliseconds(50)
        let offline = NotibaseClient(configuration: configuration, center: SimulatedDevice().center)
        offline.registerDeviceToken(Data(repeating: 0x01, count: 32))
        #expect(await offline.flushNow() == false)
        #expect(offline.hasPendingRegistration)

        // The server is reachable now; the app is relaunched.
        let world = try await LiveWorld.start()
        configuration.serverURL = world.serverURL
        configuration.clientKey = world.clientKey
        let relaunched = NotibaseClient(configuration: configuration, center: SimulatedDevice().center)
        #expect(relaunched.hasPendingRegistration)
        relaunched.start()
        let first = String(repeating: "01", count: 32)
        _ = try await world.waitFor("/v1/devices") { answer in answer["items"].array.contains { $0["token"].string == first } }
        try await waitUntil { !relaunched.hasPendingRegistration }
        #expect(relaunched.registeredToken == first)

        // APNs hands the app a new token: the old registration is replaced.
        relaunched.registerDeviceToken(Data(repeating: 0x02, count: 32))
        #expect(await relaunched.flushNow())
        let devices = try await world.call("GET", "/v1/devices")
        let old = devices["items"].array.first { $0["token"].string == first }
        #expect(old?["active"] == false)
        #expect(old?["deactivatedReason"].string?.contains("replaced") == true)
        #expect(devices["items"].array.contains { $0["token"].string == String(repeating: "02", count: 32) && $0["active"] == true } == true)
        await world.stop()
    }

    /// The extension could not reach the server (offline, or stopped by iOS): its render report
    /// waits in the shared outbox, and the app posts it at its next launch, once.
    @Test func theAppPostsWhatTheExtensionCouldNot() async throws {
        let world = try await LiveWorld.start()
        let token = String(repeating: "cd", count: 32)
        let phone = world.fleet.addIPhone(name: "iPhone", token: token)
        let client = world.client(for: phone)
        client.registerDeviceToken(Data(repeating: 0xcd, count: 32))
        #expect(await client.flushNow())

        // The server sends; the phone's extension posts to a server that is not there.
        let sent = try await world.call("POST", "/v1/messages", body: ["message": ["title": "Hi"], "audience": ["all": true]])
        let messageID = try #require(sent["id"].string)
        _ = try await world.waitFor("/v1/messages/\(messageID)") { $0["state"].string == "completed" }
        try await waitUntil { !phone.drawn.isEmpty }
        let outbox = ReceiptOutbox(shared: phone.sharedDirectory)
        var unreachable = phone.extensionConfiguration
        unreachable.receiptEndpoint = ReceiptEndpoint(serverURL: URL(string: "http://127.0.0.1:1")!, clientKey: world.clientKey)  // nothing answers
        // With the server reachable, the extension reports right after handing the content back.
        _ = try await world.waitFor("/v1/messages/\(messageID)/deliveries") { Self.events($0).contains("rendered") }

        // Again, with the server unreachable from the extension.
        phone.extensionConfiguration = unreachable
        let second = try await world.call("POST", "/v1/messages", body: ["message": ["title": "Again"], "audience": ["all": true]])
        let secondID = try #require(second["id"].string)
        _ = try await world.waitFor("/v1/messages/\(secondID)") { $0["state"].string == "completed" }
        try await waitUntil { phone.drawn.count == 2 }
        try await waitUntil { outbox.pending().count == 1 }
        #expect(!Self.events(try await world.call("GET", "/v1/messages/\(secondID)/deliveries")).contains("rendered"))

        // The next launch of the app sends it.
        let relaunched = world.client(for: phone)
        relaunched.start()
        let log = try await world.waitFor("/v1/messages/\(secondID)/deliveries") { Self.events($0).contains("rendered") }
        #expect(Self.events(log).filter { $0 == "rendered" }.count == 1)
        try await waitUntil { outbox.pending().isEmpty }
        await world.stop()
    }

    static func history(_ deliveries: JSONValue) -> [JSONValue] {
        deliveries["items"][0]["history"].array
    }

    static func events(_ deliveries: JSONValue) -> [String] {
        history(deliveries).compactMap { $0["event"].string }
    }
}

