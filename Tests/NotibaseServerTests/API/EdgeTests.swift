import Foundation
import NotibaseCore
import NotibaseSenders
import NotibaseTestSupport
import Synchronization
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

/// Issue 28's edges: what a tester found at the borders of the API.
@Suite("Edges")
struct EdgeTests {
    @Test(arguments: Transport.allCases)
    func everyAPIAnswerIsNosniffAndNoStore(over transport: Transport) async throws {
        let harness = try await Harness()
        try await harness.test(transport) { client in
            let created = try await client.request("POST", "/v1/apps", key: Harness.adminKey, body: #"{"name": "Shop"}"#)
            #expect(created.status == 201 && created["serverKey"].string != nil)
            let others = [
                try await client.request("GET", "/healthz", key: nil), try await client.request("GET", "/v1/devices", key: nil),
                try await client.request("GET", "/v1/nothing", key: nil), try await client.request("GET", "/openapi.json", key: nil),
            ]
            for reply in [created] + others {
                #expect(reply.headers["x-content-type-options"] == "nosniff" && reply.headers["cache-control"] == "no-store", "\(reply.status): \(reply.headers)")
            }
        }
    }

    @Test func theRequestIDIsTheServersOwnAndTheClientsIsLoggedBesideItSanitized() async throws {
        let captured = LogTests.Lines()
        let harness = try await Harness(logger: Logger(minimumLevel: .debug) { line in captured.lines.withLock { $0.append(line) } })
        let reply = await harness.request("GET", "/healthz", key: nil, headers: ["X-Request-Id": "someone-elses-id"])
        let id = try #require(reply.headers["x-request-id"])
        #expect(id != "someone-elses-id")
        let hostile = await harness.request("GET", "/healthz", key: nil, headers: ["X-Request-Id": "a \"b\"\u{1b}[31m\\c"])
        let hostileID = try #require(hostile.headers["x-request-id"])
        let lines = captured.all
        #expect(lines.contains { $0.contains(#""clientRequestId":"someone-elses-id""#) && $0.contains(#""requestId":"\#(id)""#) })
        #expect(lines.contains { $0.contains(#""clientRequestId":"a__b___31m_c""#) && $0.contains(#""requestId":"\#(hostileID)""#) })
    }

    @Test func timesOutside2000To2100AreRefusedNamingTheField() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        for time in ["0000-01-01T00:00:00+23:59", "9999-12-31T23:59:59-23:59", "1999-12-31T23:59:59Z"] {
            let receipt = await harness.request("POST", "/v1/receipts", key: app.serverKey, body: #"""
                {"id": "r1", "deliveryId": "01a3185c-5000-7000-8000-000000000000", "event": "opened", "occurredAt": "\#(time)"}
                """#)
            #expect(receipt.status == 400 && receipt["error"]["field"].string == "occurredAt", "\(time): \(receipt.text)")
            let message = await harness.request("POST", "/v1/messages", key: app.serverKey, body: #"""
                {"message": {"title": "Hi"}, "audience": {"all": true}, "sendAt": "\#(time)"}
                """#)
            #expect(message.status == 400 && message["error"]["field"].string == "sendAt", "\(time): \(message.text)")
        }
    }

    @Test func controlCharactersAreRefusedInIdentifiersTagsAndKeys() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        func field(_ method: String, _ path: String, _ body: String? = nil, key: String? = nil) async -> String? {
            let reply = await harness.request(method, path, key: key ?? app.serverKey, body: body)
            return reply.status == 400 ? reply["error"]["field"].string ?? reply["error"]["issues"][0]["field"].string ?? "?" : nil
        }
        let token = Harness.token(1)
        #expect(await field("POST", "/v1/devices", #"{"platform": "ios", "token": "\#(token)", "tags": ["a\u0000b"]}"#, key: app.clientKey) == "tags")
        #expect(await field("POST", "/v1/devices", #"{"platform": "ios", "token": "\#(token)", "tags": ["a\u001fb"]}"#) == "tags")
        #expect(await field("POST", "/v1/devices", #"{"platform": "ios", "token": "\#(token)", "externalUserId": "u\u0000"}"#) == "externalUserId")
        #expect(await field("POST", "/v1/devices", #"{"platform": "ios", "token": "\#(token)", "appVersion": "1\u007f"}"#) == "appVersion")
        #expect(await field("POST", "/v1/identity-tokens", #"{"externalUserId": "u\u0000"}"#) == "externalUserId")
        let send = #"{"message": {"title": "Hi"}, "audience": "#
        #expect(await field("POST", "/v1/messages", send + #"{"tags": {"anyOf": ["a\u0000b"]}}}"#)?.hasSuffix("anyOf") == true)
        #expect(await field("POST", "/v1/messages", send + #"{"externalUserIds": ["u\u0000"]}}"#)?.hasSuffix("externalUserIds") == true)
        #expect(await field("POST", "/v1/messages", send + #"{"all": true}, "idempotencyKey": "k\u0000"}"#) == "idempotencyKey")
        #expect(await field("POST", "/v1/messages", #"{"message": {"title": "Hi", "data": {"a\u0000b": 1}}, "audience": {"all": true}}"#) == "message.data")
        #expect(await field("POST", "/v1/messages", #"{"message": {"title": "Hi", "category": "c\u0001"}, "audience": {"all": true}}"#) == "message.category")
        #expect(await field("POST", "/v1/audience/count", #"{"audience": {"tags": {"allOf": ["a\u0000"]}}}"#)?.hasSuffix("allOf") == true)
        #expect(await field("GET", "/v1/devices?tag=a%01b") == "tag")
        #expect(await field("POST", "/v1/receipts", #"{"id": "r\u0000", "deliveryId": "d", "event": "opened", "occurredAt": "2027-01-15T08:00:00Z"}"#) == "id")
        // Nothing was registered: the audience of tag "a" is still empty.
        #expect(await harness.request("GET", "/v1/devices", key: app.serverKey)["items"].array.isEmpty)
    }

    @Test func identityTokensAndReceiptSignaturesHaveOneSpelling() throws {
        let signer = Signer(secretKey: Harness.secretKey)
        let token = signer.identityToken(appID: "app", externalUserID: "alice")
        let signature = signer.receiptSignature(deliveryID: "delivery")
        #expect(signer.isIdentityToken(token, appID: "app", externalUserID: "alice"))
        #expect(signer.isReceiptSignature(signature, deliveryID: "delivery"))
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        // The last of 43 characters carries 4 bits and 2 unused ones: three other spellings.
        func respellings(_ text: String) throws -> [String] {
            let character = try #require(text.last)
            let last = try #require(alphabet.firstIndex(of: character))
            return (1...3).map { String(text.dropLast()) + String(alphabet[last ^ $0]) }
        }
        for other in try respellings(token) { #expect(!signer.isIdentityToken(other, appID: "app", externalUserID: "alice"), "\(other)") }
        for other in try respellings(signature) { #expect(!signer.isReceiptSignature(other, deliveryID: "delivery"), "\(other)") }
        #expect(!signer.isIdentityToken(token + "=", appID: "app", externalUserID: "alice"))
    }

    @Test func anAdminKeyFromTheEnvironmentMustBeAsStrongAsAGeneratedOne() async throws {
        for weak in ["nb_admin_" + String(repeating: "a", count: 21), "nb_admin_" + String(repeating: "A", count: 43), "nb_admin_" + String(repeating: "AB", count: 21) + "A"] {
            let directory = TemporaryDirectory()
            var configuration = ServerConfiguration()
            configuration.port = 0
            configuration.dataDirectory = directory.path
            configuration.adminKey = weak
            await #expect(throws: ConfigurationError.self, "\(weak)") {
                let server = try await Server.start(configuration, senders: .accepting(try AcceptingSender()), logger: .silent)
                await server.shutdown()
            }
        }
        for _ in 0..<1_000 { #expect(APIKey.isStrong(try APIKey.generate(.admin), .admin)) }
    }
}
