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

/// Issue 28: a push token is a secret, not an identity. Knowing another person's token must not
/// move their device to oneself, retire it, or tell whose it is.
@Suite("Device ownership")
struct DeviceOwnershipTests {
    /// Both registration paths: the quick handler on the polling thread, and the task.
    static let paths = [true, false]

    private func identityToken(_ harness: Harness, _ app: TestApp, _ user: String) async throws -> String {
        try #require(await harness.request("POST", "/v1/identity-tokens", key: app.serverKey, body: #"{"externalUserId": "\#(user)"}"#)["token"].string)
    }

    /// An app that requires identity verification, and the identity tokens of alice and mallory.
    private func verifyingApp(quickHandlers: Bool) async throws -> (Harness, TestApp, alice: String, mallory: String) {
        let harness = try await Harness(quickHandlers: quickHandlers)
        let app = try await harness.createApp(verifiesIdentity: true)
        return (harness, app, try await identityToken(harness, app, "alice"), try await identityToken(harness, app, "mallory"))
    }

    private func register(_ harness: Harness, _ app: TestApp, _ number: Int, _ extra: String = "") async -> Reply {
        await harness.request("POST", "/v1/devices", key: app.clientKey, body: #"{"platform": "ios", "token": "\#(Harness.token(number))"\#(extra)}"#)
    }

    private func user(_ harness: Harness, _ app: TestApp, _ id: String) async -> String? {
        await harness.request("GET", "/v1/devices/\(id)", key: app.serverKey)["externalUserId"].string
    }

    @Test(arguments: paths)
    func aDeviceVerifiedAsAnotherUserNeedsThatUsersToken(quickHandlers: Bool) async throws {
        let (harness, app, alice, mallory) = try await verifyingApp(quickHandlers: quickHandlers)
        let device = try #require(await register(harness, app, 1, #", "externalUserId": "alice", "externalUserIdToken": "\#(alice)""#)["id"].string)

        let takeover = await register(harness, app, 1, #", "externalUserId": "mallory", "externalUserIdToken": "\#(mallory)", "tags": ["x"]"#)
        #expect(takeover.status == 403 && takeover.errorCode == "identity_required" && takeover["error"]["field"].string == "externalUserIdToken")
        let anonymous = await register(harness, app, 1, #", "tags": ["x"]"#)
        #expect(anonymous.status == 403 && anonymous.errorCode == "identity_required")
        #expect(await user(harness, app, device) == "alice")
        #expect(await harness.request("GET", "/v1/devices/\(device)", key: app.serverKey)["tags"].array.isEmpty)

        // Alice herself, with her token, may; so may the backend with the server key.
        #expect(await register(harness, app, 1, #", "externalUserId": "alice", "externalUserIdToken": "\#(alice)", "tags": ["y"]"#).status == 200)
        let moved = await harness.request("POST", "/v1/devices", key: app.serverKey, body: #"{"platform": "ios", "token": "\#(Harness.token(1))", "externalUserId": "bob"}"#)
        #expect(moved.status == 200 && moved["externalUserId"].string == "bob")
    }

    /// A takeover that arrives among many registrations (written together, a group per commit)
    /// is refused alone: the others are stored, the victim's device stays hers.
    @Test func aTakeoverAmongManyRegistrationsIsRefusedAlone() async throws {
        let (harness, app, alice, mallory) = try await verifyingApp(quickHandlers: true)
        let device = try #require(await register(harness, app, 1, #", "externalUserId": "alice", "externalUserIdToken": "\#(alice)""#)["id"].string)
        let statuses = await withTaskGroup(of: (Int, Int).self) { group in
            for number in 1...40 {
                group.addTask {
                    let extra = #", "externalUserId": "mallory", "externalUserIdToken": "\#(mallory)""#
                    return (number, await register(harness, app, number == 20 ? 1 : 100 + number, extra).status)
                }
            }
            return await group.reduce(into: [Int: Int]()) { $0[$1.0] = $1.1 }
        }
        #expect(statuses[20] == 403)
        #expect(statuses.filter { $0.key != 20 }.values.allSatisfy { $0 == 201 })
        #expect(await user(harness, app, device) == "alice")
    }

    @Test(arguments: paths)
    func previousTokenRetiresOnlyADeviceOfTheSameUserOrOfNone(quickHandlers: Bool) async throws {
        let (harness, app, alice, mallory) = try await verifyingApp(quickHandlers: quickHandlers)
        let alices = try #require(await register(harness, app, 1, #", "externalUserId": "alice", "externalUserIdToken": "\#(alice)""#)["id"].string)
        let nobodys = try #require(await register(harness, app, 2)["id"].string)
        func active(_ id: String) async -> Bool? { await harness.request("GET", "/v1/devices/\(id)", key: app.serverKey)["active"].bool }

        let mallorys = #", "externalUserId": "mallory", "externalUserIdToken": "\#(mallory)", "previousToken": "#
        #expect(await register(harness, app, 3, mallorys + #""\#(Harness.token(1))""#).status == 201)
        #expect(await active(alices) == true)
        #expect(await register(harness, app, 4, mallorys + #""\#(Harness.token(2))""#).status == 201)
        #expect(await active(nobodys) == false)
        // Alice's own new token retires her old one.
        #expect(await register(harness, app, 5, #", "externalUserId": "alice", "externalUserIdToken": "\#(alice)", "previousToken": "\#(Harness.token(1))""#).status == 201)
        #expect(await active(alices) == false)
    }

    @Test(arguments: paths)
    func aClientKeyAnswerShowsNoUserItDidNotSend(quickHandlers: Bool) async throws {
        let harness = try await Harness(quickHandlers: quickHandlers)
        let app = try await harness.createApp()
        #expect(await register(harness, app, 1, #", "externalUserId": "bob""#)["externalUserId"].string == "bob")
        let again = await register(harness, app, 1)
        #expect(again.status == 200 && again["externalUserId"] == .null && !again.text.contains("bob"))
        let byServer = await harness.request("POST", "/v1/devices", key: app.serverKey, body: #"{"platform": "ios", "token": "\#(Harness.token(1))"}"#)
        #expect(byServer["externalUserId"].string == "bob")
    }
}
