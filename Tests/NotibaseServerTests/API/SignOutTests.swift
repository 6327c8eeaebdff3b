import Foundation
import NotibaseCore
import NotibaseSenders
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
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// Issue 29: a signed-out phone stops getting its previous user's messages. `POST
/// /v1/devices/sign-out` clears the device's user at once; nothing addressed to that user reaches
/// it afterwards, not even a message accepted before the sign-out and not yet sent.
@Suite("Sign-out")
struct SignOutTests {
    private func identityToken(_ harness: Harness, _ app: TestApp, _ user: String) async throws -> String {
        try #require(await harness.request("POST", "/v1/identity-tokens", key: app.serverKey, body: #"{"externalUserId": "\#(user)"}"#)["token"].string)
    }

    /// An app that requires identity verification, with alice signed in on phones 1 and 2.
    private func alicesPhones(sender: ScriptedSender, handoff: Handoff? = nil) async throws -> (Harness, TestApp, String, String) {
        let harness = try await Harness(sender: sender, handoff: handoff)
        let app = try await harness.createApp(verifiesIdentity: true)
        let token = try await identityToken(harness, app, "alice")
        let signIn = #", "externalUserId": "alice", "externalUserIdToken": "\#(token)""#
        return (harness, app, try await harness.registerDevice(app, number: 1, extra: signIn), try await harness.registerDevice(app, number: 2, extra: signIn))
    }

    private func signOut(_ harness: Harness, key: String, _ number: Int, platform: Platform = .ios) async -> Reply {
        await harness.request("POST", "/v1/devices/sign-out", key: key, body: #"{"platform": "\#(platform.rawValue)", "token": "\#(Harness.token(number, platform))"}"#)
    }

    /// The devices a message's deliveries went to, and their states.
    private func deliveries(_ harness: Harness, _ app: TestApp, _ message: String) async -> [String: String] {
        let log = await harness.request("GET", "/v1/messages/\(message)/deliveries", key: app.serverKey)
        return Dictionary(log["items"].array.compactMap { item in item["deviceId"].string.map { ($0, item["state"].string ?? "") } }, uniquingKeysWith: { $1 })
    }

    @Test func aMessageToTheUserSentAfterTheSignOutNeverReachesThePhone() async throws {
        let sender = ScriptedSender()
        let (harness, app, signedOut, stillSignedIn) = try await alicesPhones(sender: sender)

        // The client key, without any identity token: clearing proves nothing about anyone.
        let answer = await signOut(harness, key: app.clientKey, 1)
        #expect(answer.status == 204 && answer.text.isEmpty)
        #expect(await harness.request("GET", "/v1/devices/\(signedOut)", key: app.serverKey)["externalUserId"] == .null)

        let toAlice = try await harness.send(app, #"{"message": {"title": "Your code is 1234"}, "audience": {"externalUserIds": ["alice"]}}"#)
        let toEveryone = try await harness.send(app, #"{"message": {"title": "Sale"}, "audience": {"all": true}}"#)
        try await harness.deliverDue()
        #expect(await deliveries(harness, app, toAlice) == [stillSignedIn: "sent"])
        // Signed out is not unsubscribed: the phone still gets what is meant for every device.
        #expect(await deliveries(harness, app, toEveryone) == [signedOut: "sent", stillSignedIn: "sent"])
        #expect(sender.pushes.count == 3)
    }

    /// With or without a handoff: a post's deliveries written claimed and handed to this node's
    /// workers in memory are not sent either.
    @Test(arguments: [false, true])
    func aMessageToTheUserAcceptedBeforeTheSignOutIsNotSentAfterIt(handedOff: Bool) async throws {
        let sender = ScriptedSender()
        let handoff = handedOff ? Handoff(workers: 1, batchSize: 10) : nil
        let (harness, app, signedOut, stillSignedIn) = try await alicesPhones(sender: sender, handoff: handoff)
        // Written to both phones, not yet sent; one waiting for its time, not yet fanned out; one
        // to every device.
        let queued = try await harness.send(app, #"{"message": {"title": "Your order shipped"}, "audience": {"externalUserIds": ["alice"]}}"#)
        let later = Timestamp.format(harness.time.now.addingTimeInterval(600))
        let scheduled = try await harness.send(app, #"{"message": {"title": "Reminder"}, "audience": {"externalUserIds": ["alice"]}, "sendAt": "\#(later)"}"#)
        let toEveryone = try await harness.send(app, #"{"message": {"title": "Sale"}, "audience": {"all": true}}"#)
        #expect(await deliveries(harness, app, queued) == [signedOut: "queued", stillSignedIn: "queued"])
        if let handoff { #expect(handoff.room < handoff.capacity) }

        #expect(await signOut(harness, key: app.clientKey, 1).status == 204)
        try await harness.deliverDue()
        harness.advance(601)
        try await harness.deliverDue()

        #expect(await deliveries(harness, app, queued) == [signedOut: "cancelled", stillSignedIn: "sent"])
        #expect(await deliveries(harness, app, scheduled) == [stillSignedIn: "sent"])
        #expect(await deliveries(harness, app, toEveryone) == [signedOut: "sent", stillSignedIn: "sent"])
        #expect(await harness.request("GET", "/v1/messages/\(queued)", key: app.serverKey)["state"].string == "completed")
        let log = await harness.request("GET", "/v1/devices/\(signedOut)/deliveries?state=cancelled", key: app.serverKey)
        #expect(log["items"][0]["history"].array.last?["reason"].string?.contains("signed out") == true)
        #expect(sender.pushes.count == 4)
    }

    @Test func signingInAgainAfterwardsNeedsTheIdentityToken() async throws {
        let (harness, app, signedOut, _) = try await alicesPhones(sender: ScriptedSender())
        #expect(await signOut(harness, key: app.clientKey, 1).status == 204)
        let unverified = try await harness.registerDevice(app, number: 1, extra: #", "externalUserId": "mallory""#)
        #expect(unverified == signedOut)
        #expect(await harness.request("GET", "/v1/devices/\(signedOut)", key: app.serverKey)["externalUserId"] == .null)
        let bob = try await identityToken(harness, app, "bob")
        try await harness.registerDevice(app, number: 1, extra: #", "externalUserId": "bob", "externalUserIdToken": "\#(bob)""#)
        #expect(await harness.request("GET", "/v1/devices/\(signedOut)", key: app.serverKey)["externalUserId"].string == "bob")
    }

    /// The public key needs the device's token (a secret) and learns nothing: the answer is the
    /// same whether or not the device exists. The server key is told.
    @Test func theClientKeyLearnsNothingAndTheServerKeyIsTold() async throws {
        let (harness, app, first, second) = try await alicesPhones(sender: ScriptedSender())
        let unknown = await signOut(harness, key: app.clientKey, 99)
        #expect(unknown.status == 204 && unknown.text.isEmpty)
        #expect(await signOut(harness, key: app.serverKey, 99).status == 404)
        #expect(await signOut(harness, key: app.clientKey, 1, platform: .android).status == 204)
        for device in [first, second] {
            #expect(await harness.request("GET", "/v1/devices/\(device)", key: app.serverKey)["externalUserId"].string == "alice")
        }
        // Another app's key reaches none of this app's devices.
        let other = try await harness.createApp("Other")
        #expect(await signOut(harness, key: other.serverKey, 1).status == 404)
        #expect(await harness.request("GET", "/v1/devices/\(first)", key: app.serverKey)["externalUserId"].string == "alice")
        // The token's case does not matter on iOS, as at registration.
        let upper = await harness.request("POST", "/v1/devices/sign-out", key: app.serverKey, body: #"{"platform": "ios", "token": "\#(Harness.token(2).uppercased())"}"#)
        #expect(upper.status == 204)
        #expect(await harness.request("GET", "/v1/devices/\(second)", key: app.serverKey)["externalUserId"] == .null)
    }

    @Test(arguments: [
        (#"{"platform": "ios", "token": "not-hex"}"#, "token"),
        (#"{"platform": "ios"}"#, "token"),
        (#"{"platform": "web", "token": "abcd"}"#, "platform"),
        (#"{"platform": "ios", "token": "\#(String(repeating: "a", count: 64))", "externalUserId": "x"}"#, "externalUserId"),
    ])
    func badBodiesNameTheField(body: String, field: String) async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let answer = await harness.request("POST", "/v1/devices/sign-out", key: app.clientKey, body: body)
        #expect(answer.status == 400)
        #expect(answer["error"]["field"].string == field)
    }
}
