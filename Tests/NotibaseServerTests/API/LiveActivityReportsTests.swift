import Foundation
import NotibaseCore
import Testing
@testable import NotibaseServer
@testable import NotibaseDomain
@testable import NotibaseStore
@testable import NotibaseHTTP
@testable import NotibaseServices
@testable import NotibaseAPI
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// Issue 46: the Live Activity registry. The SDKs report a device's push-to-start tokens, its
/// activities' update tokens and their ends to `POST /v1/live-activity-reports`; the backend reads
/// an activity's devices at `GET /v1/live-activities/{activityId}` and a device's push-to-start
/// types at `GET /v1/devices/{deviceId}`.
@Suite("Live Activity reports")
struct LiveActivityReportsTests {
    static func hex(_ n: Int) -> String { String(format: "%080x", n) }

    private func report(_ harness: Harness, _ key: String, _ body: String) async -> Reply {
        await harness.request("POST", "/v1/live-activity-reports", key: key, body: body)
    }

    private func pushToStart(_ device: Int, type: String = "DeliveryAttributes", token: Int, platform: Platform = .ios) -> String {
        #"{"deviceToken": "\#(Harness.token(device, platform))", "kind": "pushToStartToken", "attributesType": "\#(type)", "token": "\#(Self.hex(token))", "contentStateSchema": {"fields": [{"key": "eta", "type": "integer", "optional": false}]}}"#
    }

    private func updateToken(_ device: Int, activity: String = "order-42", token: Int, platform: Platform = .ios) -> String {
        #"{"deviceToken": "\#(Harness.token(device, platform))", "kind": "updateToken", "attributesType": "DeliveryAttributes", "activityId": "\#(activity)", "token": "\#(Self.hex(token))"}"#
    }

    private func ended(_ device: Int, _ kind: String = "ended", activity: String = "order-42", platform: Platform = .ios) -> String {
        #"{"deviceToken": "\#(Harness.token(device, platform))", "kind": "\#(kind)", "activityId": "\#(activity)"}"#
    }

    /// The activity's devices by ID: state and whether an update token is known.
    private func activity(_ harness: Harness, _ app: TestApp, _ id: String = "order-42") async -> [String: String] {
        let reply = await harness.request("GET", "/v1/live-activities/\(id)", key: app.serverKey)
        return Dictionary(reply["devices"]["items"].array.compactMap { item in
            item["deviceId"].string.map { ($0, "\(item["state"].string ?? "?") \(item["hasUpdateToken"].bool == true ? "token" : "none")") }
        }, uniquingKeysWith: { $1 })
    }

    @Test func eachKindOfReportIsKeptAndRotationReplacesTheToken() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let phone = try await harness.registerDevice(app, number: 1)
        let android = try await harness.registerDevice(app, number: 2, platform: .android)

        var reply = await report(harness, app.clientKey, pushToStart(1, token: 1))
        #expect(reply.status == 202 && reply["deviceId"].string == phone && reply["kind"].string == "pushToStartToken" && reply["state"] == .null, "\(reply.text)")
        #expect(await report(harness, app.clientKey, pushToStart(1, token: 2)).status == 202)
        #expect(await report(harness, app.clientKey, pushToStart(1, type: "ScoreAttributes", token: 3)).status == 202)
        let device = await harness.request("GET", "/v1/devices/\(phone)", key: app.serverKey)
        #expect(device["pushToStartAttributesTypes"].array.compactMap(\.string) == ["DeliveryAttributes", "ScoreAttributes"])
        let tokens = try await harness.store.pushToStartTokens(appID: app.id, deviceSeq: try #require(try await harness.store.device(appID: app.id, id: phone)).seq)
        #expect(tokens.map(\.token) == [Self.hex(2), Self.hex(3)])
        #expect(tokens[0].contentStateSchema?.contains(#""key":"eta""#) == true)

        reply = await report(harness, app.clientKey, updateToken(1, token: 4))
        #expect(reply.status == 202 && reply["state"].string == "active", "\(reply.text)")
        #expect(await report(harness, app.clientKey, updateToken(1, token: 5)).status == 202)
        let rows = try await harness.store.liveActivityDevices(appID: app.id, activityID: "order-42", page: .after(0, limit: 10))
        #expect(rows.map(\.updateToken) == [Self.hex(5)])
        #expect(await activity(harness, app) == [phone: "active token"])

        // An Android device has no ActivityKit token: it reports only ends and dismissals.
        reply = await report(harness, app.clientKey, updateToken(2, token: 9, platform: .android))
        #expect(reply.status == 409 && reply.errorCode == "not_for_platform" && reply["error"]["field"].string == "kind", "\(reply.text)")
        // Android reports its end with its FCM token; iOS its end, then its dismissal.
        #expect(await report(harness, app.clientKey, ended(2, platform: .android)).status == 202)
        #expect(await report(harness, app.clientKey, ended(1)).status == 202)
        #expect(await activity(harness, app) == [phone: "ended none", android: "ended none"])
        // A token after the end changes nothing: the activity stays ended (200, not 202).
        reply = await report(harness, app.clientKey, updateToken(1, token: 6))
        #expect(reply.status == 200 && reply["state"].string == "ended", "\(reply.text)")
        #expect(await report(harness, app.clientKey, ended(1, "dismissed")).status == 202)
        #expect(await activity(harness, app) == [phone: "dismissed none", android: "ended none"])
    }

    @Test func anActivitysDevicesArePagedAndAnUnknownActivityIsNotFound() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        for number in 1...3 {
            try await harness.registerDevice(app, number: number)
            #expect(await report(harness, app.clientKey, updateToken(number, token: number)).status == 202)
        }
        let first = await harness.request("GET", "/v1/live-activities/order-42?limit=2&total=true", key: app.serverKey)
        #expect(first.status == 200 && first["activityId"].string == "order-42" && first["devices"]["total"].int == 3)
        let cursor = try #require(first["devices"]["nextCursor"].string)
        let second = await harness.request("GET", "/v1/live-activities/order-42?limit=2&cursor=\(cursor)", key: app.serverKey)
        #expect(second["devices"]["items"].array.count == 1 && second["devices"]["nextCursor"] == .null)
        #expect(first["devices"]["items"][0]["platform"].string == "ios" && first["devices"]["items"][0]["updatedAt"].string != nil)

        #expect(await harness.request("GET", "/v1/live-activities/order-43", key: app.serverKey).status == 404)
        #expect(await harness.request("GET", "/v1/live-activities/bad%20id", key: app.serverKey)["error"]["field"].string == "activityId")
        // The server key reads it; the client key may not.
        #expect(await harness.request("GET", "/v1/live-activities/order-42", key: app.clientKey).status == 403)
        // Another app's activity of the same ID is another activity.
        let other = try await harness.createApp("Other")
        #expect(await harness.request("GET", "/v1/live-activities/order-42", key: other.serverKey).status == 404)
    }

    @Test(arguments: [
        (#"{"deviceToken": "\#(Harness.token(1))", "kind": "pushToStartToken", "attributesType": "A", "token": "\#(hex(1))", "extra": 1}"#, "extra", 400),
        (#"{"deviceToken": "\#(Harness.token(1))", "kind": "started", "activityId": "a"}"#, "kind", 400),
        (#"{"deviceToken": "short", "kind": "ended", "activityId": "a"}"#, "deviceToken", 400),
        (#"{"deviceToken": "\#(Harness.token(1))", "kind": "pushToStartToken", "token": "\#(hex(1))"}"#, "attributesType", 400),
        (#"{"deviceToken": "\#(Harness.token(1))", "kind": "pushToStartToken", "attributesType": "A"}"#, "token", 400),
        (#"{"deviceToken": "\#(Harness.token(1))", "kind": "updateToken", "attributesType": "A", "token": "\#(hex(1))"}"#, "activityId", 400),
        (#"{"deviceToken": "\#(Harness.token(1))", "kind": "ended"}"#, "activityId", 400),
        (#"{"deviceToken": "\#(Harness.token(1))", "kind": "ended", "activityId": "a", "token": "\#(hex(1))"}"#, "token", 400),
        (#"{"deviceToken": "\#(Harness.token(1))", "kind": "pushToStartToken", "attributesType": "A", "activityId": "a", "token": "\#(hex(1))"}"#, "activityId", 400),
        (#"{"deviceToken": "\#(Harness.token(1))", "kind": "pushToStartToken", "attributesType": "Delivery<T>", "token": "\#(hex(1))"}"#, "attributesType", 400),
        (#"{"deviceToken": "\#(Harness.token(1))", "kind": "pushToStartToken", "attributesType": "A", "token": "xyz\#(hex(1))"}"#, "token", 400),
        (#"{"deviceToken": "\#(Harness.token(1))", "kind": "pushToStartToken", "attributesType": "A", "token": "abc"}"#, "token", 400),
        (#"{"deviceToken": "\#(Harness.token(1))", "kind": "ended", "activityId": "order 42"}"#, "activityId", 400),
        (#"{"deviceToken": "\#(Harness.token(1))", "kind": "ended", "activityId": "\#(String(repeating: "a", count: 65))"}"#, "activityId", 400),
        (#"{"deviceToken": "\#(Harness.token(9))", "kind": "ended", "activityId": "a"}"#, "deviceToken", 404),
    ])
    func badInputIsRefusedNamingTheField(body: String, field: String, status: Int) async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1)
        let reply = await report(harness, app.clientKey, body)
        #expect(reply.status == status && reply["error"]["field"].string == field, "\(reply.text)")
        #expect(try await harness.store.rowCount("live_activity_tokens") == 0)
        #expect(try await harness.store.rowCount("live_activity_start_tokens") == 0)
    }

    @Test func aSchemaTooLargeIsRefused() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1)
        let fields = (0...LiveActivitiesAPI.maximumSchemaFields).map { #"{"key": "k\#($0)", "type": "string", "optional": true}"# }.joined(separator: ",")
        let body = #"{"deviceToken": "\#(Harness.token(1))", "kind": "pushToStartToken", "attributesType": "A", "token": "\#(Self.hex(1))", "contentStateSchema": {"fields": [\#(fields)]}}"#
        let reply = await report(harness, app.clientKey, body)
        #expect(reply.status == 400 && reply["error"]["field"].string == "contentStateSchema", "\(reply.text)")
    }

    @Test func anotherAppsOrAnInactiveDeviceIsUnknown() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let other = try await harness.createApp("Other")
        try await harness.registerDevice(app, number: 1)
        var reply = await report(harness, other.clientKey, updateToken(1, token: 1))
        #expect(reply.status == 404 && reply.errorCode == "unknown_device" && reply["error"]["field"].string == "deviceToken", "\(reply.text)")
        // The token replaced by a new one is no longer an active device.
        try await harness.registerDevice(app, number: 2, extra: #", "previousToken": "\#(Harness.token(1))""#)
        reply = await report(harness, app.clientKey, updateToken(1, token: 1))
        #expect(reply.status == 404 && reply.errorCode == "unknown_device")
        #expect(try await harness.store.rowCount("live_activity_tokens") == 0)
    }

    @Test func withIdentityVerificationOnlyAVerifiedRegistrationReports() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp(verifiesIdentity: true)
        let token = try #require(await harness.request("POST", "/v1/identity-tokens", key: app.serverKey, body: #"{"externalUserId": "alice"}"#)["token"].string)
        let verified = try await harness.registerDevice(app, number: 1, extra: #", "externalUserId": "alice", "externalUserIdToken": "\#(token)""#)
        // Claims alice without her token: the user is not stored, the registration not verified.
        try await harness.registerDevice(app, number: 2, extra: #", "externalUserId": "alice""#)

        var reply = await report(harness, app.clientKey, updateToken(2, token: 2))
        #expect(reply.status == 403 && reply.errorCode == "identity_required" && reply["error"]["field"].string == "deviceToken", "\(reply.text)")
        #expect(await report(harness, app.clientKey, pushToStart(2, token: 2)).status == 403)
        #expect(try await harness.store.rowCount("live_activity_tokens") == 0)
        #expect(try await harness.store.rowCount("live_activity_start_tokens") == 0)

        reply = await report(harness, app.clientKey, updateToken(1, token: 1))
        #expect(reply.status == 202 && reply["deviceId"].string == verified)
        // The backend's own key needs no verification.
        #expect(await report(harness, app.serverKey, updateToken(2, token: 2)).status == 202)
    }

    @Test func deletingTheDeviceForgettingTheUserOrDeletingTheAppTakesTheirs() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let kept = try await harness.registerDevice(app, number: 1)
        let deleted = try await harness.registerDevice(app, number: 2)
        try await harness.registerDevice(app, number: 3, extra: #", "externalUserId": "bob""#)
        for number in 1...3 {
            #expect(await report(harness, app.clientKey, pushToStart(number, token: number)).status == 202)
            #expect(await report(harness, app.clientKey, updateToken(number, token: number)).status == 202)
        }
        #expect(await harness.request("DELETE", "/v1/devices/\(deleted)", key: app.serverKey).status == 204)
        #expect(await harness.request("DELETE", "/v1/users/bob", key: app.serverKey).status == 200)
        #expect(await activity(harness, app) == [kept: "active token"])
        #expect(try await harness.store.rowCount("live_activity_start_tokens") == 1)

        #expect(await harness.request("DELETE", "/v1/apps/\(app.id)", key: Harness.adminKey).status == 204)
        #expect(try await harness.store.rowCount("live_activity_tokens") == 0)
        #expect(try await harness.store.rowCount("live_activity_start_tokens") == 0)
    }
}
