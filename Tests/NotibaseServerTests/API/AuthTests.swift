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

@Suite("Keys and isolation between apps")
struct AuthTests {
    @Test(arguments: Transport.allCases)
    func missingOrWrongKeyIs401(over transport: Transport) async throws {
        let harness = try await Harness()
        try await harness.test(transport) { client in
            let missing = try await client.request("GET", "/v1/devices", key: nil)
            #expect(missing.status == 401 && missing.errorCode == "missing_key")
            let wrong = try await client.request("GET", "/v1/devices", key: "nb_server_not-a-real-key")
            #expect(wrong.status == 401 && wrong.errorCode == "invalid_key")
            let wrongAdmin = try await client.request("POST", "/v1/apps", key: "nb_admin_guess", body: #"{"name": "x"}"#)
            #expect(wrongAdmin.status == 401)
        }
    }

    @Test(arguments: Transport.allCases)
    func clientKeyRegistersDevicesButCannotSendOrRead(over transport: Transport) async throws {
        let harness = try await Harness()
        try await harness.test(transport) { client in
            let app = try await client.createApp()
            try await client.registerDevice(app, number: 1)
            let send = try await client.request("POST", "/v1/messages", key: app.clientKey, body: #"{"message": {"title": "x"}, "audience": {"all": true}}"#)
            #expect(send.status == 403 && send.errorCode == "key_not_allowed")
            #expect(try await client.request("GET", "/v1/devices", key: app.clientKey).status == 403)
            #expect(try await client.request("POST", "/v1/apps", key: app.serverKey, body: #"{"name": "x"}"#).status == 403)
        }
    }

    @Test(arguments: Transport.allCases)
    func anotherAppsDataAnswers404AsIfItDidNotExist(over transport: Transport) async throws {
        let harness = try await Harness()
        try await harness.test(transport) { client in
            let mine = try await client.createApp("Mine")
            let theirs = try await client.createApp("Theirs")
            let device = try await client.registerDevice(theirs, number: 7)
            let message = try await client.send(theirs, #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#)
            try await harness.deliverDue()
            let delivery = try await client.request("GET", "/v1/messages/\(message)/deliveries", key: theirs.serverKey)["items"][0]["id"].string ?? ""

            for path in ["/v1/devices/\(device)", "/v1/messages/\(message)", "/v1/messages/\(message)/deliveries", "/v1/deliveries/\(delivery)",
                         "/v1/devices/\(device)/deliveries", "/v1/apps/\(theirs.id)"] {
                let reply = try await client.request("GET", path, key: mine.serverKey)
                #expect(reply.status == 404, "\(path) answered \(reply.status)")
            }
            #expect(try await client.request("DELETE", "/v1/devices/\(device)", key: mine.serverKey).status == 404)
            #expect(try await client.request("POST", "/v1/messages/\(message)/cancel", key: mine.serverKey).status == 404)
            #expect(try await client.request("GET", "/v1/devices", key: mine.serverKey)["items"].array.isEmpty)
            // The owner still sees it all.
            #expect(try await client.request("GET", "/v1/devices/\(device)", key: theirs.serverKey).status == 200)
        }
    }

    @Test(arguments: Transport.allCases)
    func rotatingAKeyRetiresTheOldOneAtOnce(over transport: Transport) async throws {
        let harness = try await Harness()
        try await harness.test(transport) { client in
            let app = try await client.createApp()
            let rotated = try await client.request("POST", "/v1/apps/\(app.id)/keys/server/rotate", key: app.serverKey)
            #expect(rotated.status == 200)
            let newKey = try #require(rotated["key"].string)
            #expect(newKey.hasPrefix("nb_server_") && newKey != app.serverKey)
            #expect(try await client.request("GET", "/v1/devices", key: app.serverKey).status == 401)
            #expect(try await client.request("GET", "/v1/devices", key: newKey).status == 200)
            // The client key is unaffected.
            #expect(try await client.registerDevice(app, number: 3).isEmpty == false)
        }
    }

    @Test(arguments: Transport.allCases)
    func keysAreShownOnceAndNeverListed(over transport: Transport) async throws {
        let harness = try await Harness()
        try await harness.test(transport) { client in
            let app = try await client.createApp()
            let listed = try await client.request("GET", "/v1/apps", key: Harness.adminKey)
            #expect(listed["items"].array.count == 1)
            #expect(!listed.text.contains(app.serverKey) && !listed.text.contains(app.clientKey))
            #expect(!listed.text.contains("serverKey"))
        }
    }

    /// A server key finds its own app (the console signed in with it reads its credentials'
    /// health), and no other; the client key lists none.
    @Test(arguments: Transport.allCases)
    func aServerKeyListsItsOwnAppOnly(over transport: Transport) async throws {
        let harness = try await Harness()
        try await harness.test(transport) { client in
            let mine = try await client.createApp("Mine")
            _ = try await client.createApp("Theirs")
            let listed = try await client.request("GET", "/v1/apps", key: mine.serverKey)
            #expect(listed.status == 200)
            #expect(listed["items"].array.map { $0["id"].string } == [mine.id])
            #expect(listed["items"][0]["name"].string == "Mine")
            #expect(try await client.request("GET", "/v1/apps", key: mine.clientKey).status == 403)
            #expect(try await client.request("GET", "/v1/apps", key: Harness.adminKey)["items"].array.count == 2)
        }
    }
}
