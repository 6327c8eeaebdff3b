import Foundation
import Testing
import NotibaseCore
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

@Suite("Devices")
struct DevicesTests {
    @Test(arguments: Transport.allCases)
    func reRegisteringUpdatesTheSameDeviceAndKeepsWhatWasLeftOut(over transport: Transport) async throws {
        let harness = try await Harness()
        try await harness.test(transport) { client in
            let app = try await client.createApp()
            let first = try await client.request("POST", "/v1/devices", key: app.clientKey, body: #"{"platform": "ios", "token": "\#(Harness.token(1))", "externalUserId": "u1", "externalUserIdToken": "\#(harness.signer.identityToken(appID: app.id, externalUserID: "u1"))", "tags": ["b", "a", "b"], "locale": "fr-FR"}"#)
            #expect(first.status == 201)
            #expect(first["tags"].array.compactMap(\.string) == ["a", "b"])
            let again = try await client.request("POST", "/v1/devices", key: app.clientKey, body: #"{"platform": "ios", "token": "\#(Harness.token(1).uppercased())", "appVersion": "2.0"}"#)
            #expect(again.status == 200)
            #expect(again["id"] == first["id"])
            #expect(again["locale"].string == "fr-FR" && again["appVersion"].string == "2.0")
            // The user ID stays, but a client-key answer shows only one the registration sent.
            #expect(again["externalUserId"] == .null)
            #expect(try await client.request("GET", "/v1/devices/\(try #require(first["id"].string))", key: app.serverKey)["externalUserId"].string == "u1")
        }
    }

    /// The answer to a registration is the device as stored, whether new or updated (without a
    /// stored user ID the client-key registration did not send).
    @Test(arguments: Transport.allCases)
    func theRegistrationAnswerIsTheStoredDevice(over transport: Transport) async throws {
        let harness = try await Harness()
        try await harness.test(transport) { client in
            let app = try await client.createApp()
            let bodies = [
                #"{"platform": "ios", "token": "\#(Harness.token(1))", "externalUserId": "u\"1", "externalUserIdToken": "\#(harness.signer.identityToken(appID: app.id, externalUserID: "u\"1"))", "tags": ["b", "a"], "locale": "fr-FR", "timeZone": "Europe\/Paris", "appVersion": "1.0", "sdkVersion": "0.9"}"#,
                #"{"platform": "ios", "token": "\#(Harness.token(1))", "appVersion": "2.0", "tags": []}"#,
                #"{"platform": "android", "token": "fcm-\#(String(repeating: "x", count: 20))"}"#,
            ]
            for body in bodies {
                let registered = try await client.request("POST", "/v1/devices", key: app.clientKey, body: body)
                #expect(registered.status == 201 || registered.status == 200, "\(registered.text)")
                let id = try #require(registered["id"].string)
                let stored = try await client.request("GET", "/v1/devices/\(id)", key: app.serverKey)
                let shown = body.contains("externalUserId") ? stored.text : stored.text.replacingOccurrences(of: #""externalUserId":"u\"1","#, with: "")
                #expect(registered.text == shown)
            }
        }
    }

    @Test(arguments: Transport.allCases)
    func aNewTokenWithItsPreviousOneDeactivatesTheOldDevice(over transport: Transport) async throws {
        let harness = try await Harness()
        try await harness.test(transport) { client in
            let app = try await client.createApp()
            let old = try await client.registerDevice(app, number: 1)
            let new = try await client.registerDevice(app, number: 2, extra: #", "previousToken": "\#(Harness.token(1))""#)
            #expect(new != old)
            let stored = try await client.request("GET", "/v1/devices/\(old)", key: app.serverKey)
            #expect(stored["active"].bool == false)
            #expect(stored["deactivatedReason"].string == "replaced by a new token")
            let message = try await client.request("POST", "/v1/messages", key: app.serverKey, body: #"{"message": {"title": "x"}, "audience": {"all": true}}"#)
            #expect(message["audienceSize"].int == 1)
        }
    }

    @Test(arguments: Transport.allCases)
    func listingFiltersAndDeletingRemoves(over transport: Transport) async throws {
        let harness = try await Harness()
        try await harness.test(transport) { client in
            let app = try await client.createApp()
            let ios = try await client.registerDevice(app, number: 1, extra: #", "tags": ["vip"]"#)
            try await client.registerDevice(app, number: 2, platform: .android)
            #expect(try await client.request("GET", "/v1/devices?platform=android", key: app.serverKey)["items"].array.count == 1)
            #expect(try await client.request("GET", "/v1/devices?tag=vip", key: app.serverKey)["items"][0]["id"].string == ios)
            #expect(try await client.request("DELETE", "/v1/devices/\(ios)", key: app.serverKey).status == 204)
            #expect(try await client.request("GET", "/v1/devices/\(ios)", key: app.serverKey).status == 404)
            #expect(try await client.request("GET", "/v1/devices", key: app.serverKey)["items"].array.count == 1)
        }
    }
}
