import Foundation
import NotibaseCore
import NotibaseSimulator
import NotibaseTestSupport
import Testing
@preconcurrency import UserNotificationsShim
@testable import Notibase

/// Issue 29: `setExternalUserID(nil)` signs the user out on the server too, at once, retried until
/// it lands; a sign-in after it ends signed in.
@Suite("Signing out (iOS SDK)")
struct AppSignOutTests {
    static let token = String(repeating: "5a", count: 32)

    private func signIn(_ world: LiveWorld, _ client: NotibaseClient, as user: String) async throws {
        let identity = try await world.call("POST", "/v1/identity-tokens", body: ["externalUserId": .string(user)])
        client.setExternalUserID(user, token: identity["token"].string)
    }

    private func user(_ world: LiveWorld) async throws -> JSONValue {
        let devices = try await world.call("GET", "/v1/devices")
        return try #require(devices["items"].array.first { $0["token"].string == Self.token })["externalUserId"]
    }

    @Test func aMessageToTheUserSentAfterTheSignOutNeverReachesThePhone() async throws {
        let world = try await LiveWorld.start()
        let phone = world.fleet.addIPhone(name: "Shared iPhone", token: Self.token)
        let client = world.client(for: phone)
        client.registerDeviceToken(Data(repeating: 0x5a, count: 32))
        try await signIn(world, client, as: "alice")
        #expect(await client.flushNow())
        #expect(try await user(world) == "alice")

        client.setExternalUserID(nil)
        #expect(await client.flushNow())
        #expect(!client.hasPendingSignOut)
        #expect(try await user(world) == .null)

        let toAlice = try await world.call("POST", "/v1/messages", body: ["message": ["title": "Your code is 1234"], "audience": ["externalUserIds": ["alice"]]])
        #expect(toAlice["audienceSize"].int == 0)
        let toEveryone = try await world.call("POST", "/v1/messages", body: ["message": ["title": "Sale"], "audience": ["all": true]])
        let id = try #require(toEveryone["id"].string)
        _ = try await world.waitFor("/v1/messages/\(id)") { $0["state"].string == "completed" }
        try await waitUntil { !phone.drawn.isEmpty }
        #expect(phone.drawn.map(\.title) == ["Sale"])
        await world.stop()
    }

    /// Offline, the user signs out and another signs in: once the server is reachable the sign-out
    /// lands first, and the phone ends as the new user.
    @Test func signingOutThenInOfflineEndsSignedInAsTheNewUser() async throws {
        let world = try await LiveWorld.start()
        let phone = world.fleet.addIPhone(name: "Shared iPhone", token: Self.token)
        // Alice signed in on this phone earlier (the backend's record of it).
        let registered = try await world.call("POST", "/v1/devices", body: ["platform": "ios", "token": .string(Self.token), "externalUserId": "alice"])
        #expect(registered["externalUserId"] == "alice")

        // The app, with nothing answering at the server's address.
        var configuration = world.client(for: phone).configuration
        configuration.serverURL = URL(string: "http://127.0.0.1:1")!
        configuration.initialRetryDelay = .seconds(60)
        let offline = NotibaseClient(configuration: configuration, center: phone.device.center)
        offline.registerDeviceToken(Data(repeating: 0x5a, count: 32))
        try await signIn(world, offline, as: "alice")
        offline.setExternalUserID(nil)
        try await signIn(world, offline, as: "bob")
        #expect(await offline.flushNow() == false)
        #expect(offline.hasPendingSignOut && offline.hasPendingRegistration)
        #expect(try await user(world) == "alice")

        // The next launch, online.
        let relaunched = world.client(for: phone)
        #expect(await relaunched.flushNow())
        #expect(!relaunched.hasPendingSignOut && !relaunched.hasPendingRegistration)
        #expect(try await user(world) == "bob")

        // And signing out with no other user after it ends signed out.
        relaunched.setExternalUserID(nil)
        #expect(await relaunched.flushNow())
        #expect(try await user(world) == .null)
        await world.stop()
    }
}
