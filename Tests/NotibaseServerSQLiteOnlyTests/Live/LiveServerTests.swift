import Foundation
import NotibaseCore
import Testing
import NotibaseSenders
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

/// The server over real sockets: keep-alive, the body limit, the whole loop, TLS, shutdown.
@Suite("Live server over sockets", .serialized)
struct LiveServerTests {
    @Test func oneConnectionServesManyRequests() async throws {
        let (server, directory) = try await InProcessServer.start()
        let client = RawHTTPClient(port: server.port)
        for path in ["/healthz", "/v1/nothing", "/healthz", "/openapi.json"] {
            let response = try #require(await client.exchange("GET \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n"))
            #expect(response.headers["connection"]?.lowercased() != "close")
            #expect(response.headers["x-request-id"] != nil)
        }
        await server.shutdown()
        _ = directory
    }

    @Test func aBodyOverTheLimitIs413AndChangesNothing() async throws {
        let (server, directory) = try await InProcessServer.start()
        let client = RawHTTPClient(port: server.port)
        let body = #"{"name": "\#(String(repeating: "x", count: 5_000))"}"#
        let response = try #require(await client.exchange(
            "POST /v1/apps HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(Harness.adminKey)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"))
        #expect(response.status == 413)
        #expect(response.body.contains(#""code":"body_too_large""#))

        let list = RawHTTPClient(port: server.port)
        #expect(await list.exchange("GET /v1/apps HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(Harness.adminKey)\r\n\r\n")?.body == #"{"items":[]}"#)
        await server.shutdown()
        _ = directory
    }

    @Test func theWholeLoopOverHTTP() async throws {
        let (server, directory) = try await InProcessServer.start()
        let client = SocketClient(port: server.port)
        let app = try await client.request("POST", "/v1/apps", key: Harness.adminKey, body: #"{"name": "Live"}"#)
        let clientKey = try #require(app["clientKey"].string)
        let serverKey = try #require(app["serverKey"].string)
        #expect(try await client.request("POST", "/v1/devices", key: clientKey, body: #"{"platform": "ios", "token": "\#(Harness.token(1))"}"#).status == 201)
        let message = try await client.request("POST", "/v1/messages", key: serverKey, body: #"{"message": {"title": "Live"}, "audience": {"all": true}}"#)
        let id = try #require(message["id"].string)
        var state = ""
        for _ in 0..<200 where state != "completed" {
            state = try await client.request("GET", "/v1/messages/\(id)", key: serverKey)["state"].string ?? ""
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(state == "completed")
        let metrics = try await client.request("GET", "/metrics", key: serverKey)
        #expect(metrics.text.contains(#"notibase_sends_total{provider="accept",outcome="sent"} 1"#))
        #expect(metrics.text.contains("notibase_queue_depth 0"))
        await server.shutdown()
        _ = directory
    }

    /// A message posted to a node wakes its fan-out, and the batch its workers: it goes out at
    /// once even when the loops would otherwise look only once an hour.
    @Test func aPostedMessageGoesOutWithoutWaitingForTheNextLook() async throws {
        let (server, directory) = try await InProcessServer.start { $0.delivery.pollInterval = .seconds(3_600) }
        try await Task.sleep(for: .milliseconds(100))  // the loops have looked once and wait
        let client = SocketClient(port: server.port)
        let app = try await client.request("POST", "/v1/apps", key: Harness.adminKey, body: #"{"name": "Awake"}"#)
        let serverKey = try #require(app["serverKey"].string)
        let clientKey = try #require(app["clientKey"].string)
        #expect(try await client.request("POST", "/v1/devices", key: clientKey, body: #"{"platform": "ios", "token": "\#(Harness.token(1))"}"#).status == 201)
        let id = try #require(try await client.request("POST", "/v1/messages", key: serverKey, body: #"{"message": {"title": "Now"}, "audience": {"all": true}}"#)["id"].string)
        var state = ""
        for _ in 0..<250 where state != "completed" {
            state = try await client.request("GET", "/v1/messages/\(id)", key: serverKey)["state"].string ?? ""
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(state == "completed")
        await server.shutdown()
        _ = directory
    }

    @Test func theAdminKeyIsCreatedOnceAndStoredOnlyAsAHash() async throws {
        let directory = TemporaryDirectory()
        let configuration = InProcessServer.unkeyedConfiguration(directory.path)
        let first = try await Server.start(configuration, senders: .accepting(try AcceptingSender()), logger: .silent)
        let key = try #require(first.newAdminKey)
        #expect(key.hasPrefix("nb_admin_"))
        await first.shutdown()
        let database = try #require(FileManager.default.contents(atPath: directory.path + "/notibase.sqlite"))
        #expect(database.range(of: Data(key.utf8)) == nil)
        let second = try await Server.start(configuration, senders: .accepting(try AcceptingSender()), logger: .silent)
        #expect(second.newAdminKey == nil)
        let client = RawHTTPClient(port: second.port)
        #expect(await client.exchange("GET /v1/apps HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(key)\r\n\r\n")?.status == 200)
        await second.shutdown()
    }

    @Test func servesHTTPSWithACertificateAndKey() async throws {
        let directory = TemporaryDirectory()
        _ = try await runToEnd("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                                                    "-keyout", directory.path + "/key.pem", "-out", directory.path + "/cert.pem"])
        let (server, data) = try await InProcessServer.start {
            $0.tlsCertificatePath = directory.path + "/cert.pem"
            $0.tlsKeyPath = directory.path + "/key.pem"
        }
        let curl = try await runToEnd("/usr/bin/curl", ["-s", "--cacert", directory.path + "/cert.pem", "https://localhost:\(server.port)/healthz"])
        // InProcessServer runs the accepting sender: a trial setting /healthz names.
        #expect(curl.output == #"{"status":"ok","version":"\#(NotibaseVersion.current)","trial":["sender=accept"]}"#)
        await server.shutdown()
        _ = data
    }

    @Test func shutdownAnswersRequestsInFlightThenRefusesConnections() async throws {
        let (server, directory) = try await InProcessServer.start()
        let port = server.port
        let client = RawHTTPClient(port: port)
        #expect(await client.exchange("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")?.status == 200)  // open and accepted
        client.send("GET /v1/apps HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(Harness.adminKey)\r\n\r\n")
        await server.shutdown()
        #expect(await client.nextResponse()?.status == 200)
        #expect(await RawHTTPClient.connects(port: port) == false)
        _ = directory
    }

    @Test func everyRouteIsInTheOpenAPIDocument() throws {
        let document = try JSONDecoder().decode(JSONValue.self, from: Data(OpenAPIDocument.bytes))
        #expect(document["openapi"].string == "3.1.0")
        let parts = try ServerParts.make(
            store: try SQLiteStore(path: ":memory:"), configuration: ServerConfiguration(), senders: .unavailable,
            secretKey: Array(repeating: 1, count: 32), adminKeyHash: [], logger: .silent, clock: .system)
        let harnessRouter = APIResponder(context: parts.context, accessLog: false).router
        for route in harnessRouter.table {
            let operation = document["paths"][route.pattern][route.method.lowercased()]
            #expect(operation != .null, "\(route.method) \(route.pattern) is not documented")
        }
    }
}
