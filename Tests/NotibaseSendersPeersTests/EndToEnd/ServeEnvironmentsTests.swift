import Foundation
import Testing
import NotibaseTestSupport
@testable import NotibaseSenders

/// `notibase serve` with the real senders against two APNs peers, one for each environment, and
/// against a peer that demands a client certificate.
extension PeerTests {
    @Suite("notibase serve: APNs environments and certificates")
    struct ServeEnvironmentsTests {
        /// A `notibase serve` child on a temporary directory, with an app and its server key.
        struct Served {
            let server: ChildProcess
            let base: URL
            let serverKey: String
            let data: TemporaryDirectory
            let calls = ServeWithProvidersTests()

            init(arguments: [String]) async throws {
                data = TemporaryDirectory("notibase-serve-environments")
                server = try ChildProcess(
                    TestProducts.executable("notibase").path,
                    ["serve", "--listen", "127.0.0.1:0", "--data-dir", data.url.path, "--no-access-log", "--log-level", "error"] + arguments,
                    environment: ["NOTIBASE_ADMIN_KEY": ServeWithProvidersTests.admin])
                var line = ""
                while !line.contains("listening on") { line = try server.readLine(timeout: .seconds(30)) }
                base = URL(string: String(line[line.range(of: "http://")!.lowerBound...]))!
                let app = try await calls.call(base, "POST", "/v1/apps", ServeWithProvidersTests.admin, #"{"name":"Environments"}"#)
                serverKey = try #require(app["serverKey"] as? String)
                appID = try #require(app["id"] as? String)
            }
            let appID: String

            func call(_ method: String, _ path: String, _ body: Any?) async throws -> [String: Any] {
                let text = try body.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
                return try await calls.call(base, method, path, serverKey, text)
            }

            /// Sends a message to everyone and waits until every delivery is sent or failed.
            func sendToAll(expecting count: Int) async throws -> [[String: Any]] {
                let sent = try await call("POST", "/v1/messages", ["message": ["title": "Hello"], "audience": ["all": true]])
                let id = try #require(sent["id"] as? String)
                var deliveries: [[String: Any]] = []
                for _ in 0..<300 {
                    deliveries = try await call("GET", "/v1/messages/\(id)/deliveries", nil)["items"] as? [[String: Any]] ?? []
                    if deliveries.count == count && deliveries.allSatisfy({ ["sent", "failed"].contains($0["state"] as? String) }) { break }
                    try await Task.sleep(for: .milliseconds(50))
                }
                return deliveries
            }
        }

        /// One app, one token key, two builds: each device reaches the peer of the environment it
        /// registered (`development` is the sandbox); a device that said nothing goes to the app's.
        @Test func eachDeviceReachesThePeerOfItsEnvironment() async throws {
            let production = try await APNsFixture.start()
            // The same CA for both peers: one --apns-ca trusts them.
            let sandbox = try await APNsFixture.start(peerArguments: ["--certificates-from", production.peer.directory.path], key: production.key)
            let served = try await Served(arguments: [
                "--apns-url", production.peer.url, "--apns-sandbox-url", sandbox.peer.url, "--apns-ca", production.peer.caFile,
            ])
            _ = try await served.call("PUT", "/v1/apps/\(served.appID)/credentials/apns", [
                "keyId": production.key.keyID, "teamId": production.key.teamID, "bundleId": "com.example.app", "environment": "production",
                "privateKey": production.key.privateKeyPEM,
            ])
            let (debugBuild, storeBuild, unsaid) = (String(repeating: "0d", count: 32), String(repeating: "0e", count: 32), String(repeating: "0f", count: 32))
            _ = try await served.call("POST", "/v1/devices", ["platform": "ios", "token": debugBuild, "apnsEnvironment": "development"])
            _ = try await served.call("POST", "/v1/devices", ["platform": "ios", "token": storeBuild, "apnsEnvironment": "production"])
            _ = try await served.call("POST", "/v1/devices", ["platform": "ios", "token": unsaid])

            let deliveries = try await served.sendToAll(expecting: 3)
            #expect(deliveries.filter { $0["state"] as? String == "sent" }.count == 3, "\(deliveries)")
            // The upload's credential test (to the token that is nobody's) is no delivery: left out.
            let delivered = { (peer: TestPeer) in try peer.requestedTokens().filter { $0 != CredentialTest.apnsToken } }
            #expect(try Set(delivered(production.peer)) == [storeBuild, unsaid])
            #expect(try delivered(sandbox.peer) == [debugBuild])
            #expect(try sandbox.peer.providerTokens().count == 1, "the sandbox peer verified the app's one token key")
            served.server.stop()
        }

        /// A push certificate uploaded as a PKCS#12 file is presented as the TLS client certificate
        /// to a peer that requires one (and trusts only that certificate); no JWT is sent.
        @Test(arguments: [false, true])
        func aCertificateAuthenticatesAgainstAPeerThatRequiresIt(pkcs12: Bool) async throws {
            let certificate = try TestCertificate()
            let peer = try await TestPeer.start(.apns, arguments: ["--require-client-certificate", "--client-ca", certificate.certificateFile])
            let served = try await Served(arguments: ["--apns-url", peer.url, "--apns-ca", peer.caFile])
            var credentials: [String: Any] = ["bundleId": "com.example.app", "environment": "sandbox"]
            if pkcs12 {
                credentials["pkcs12"] = certificate.pkcs12Base64
                credentials["pkcs12Password"] = TestCertificate.password
            } else {
                credentials["certificate"] = certificate.certificatePEM
                credentials["certificateKey"] = certificate.keyPEM
            }
            let stored = try await served.call("PUT", "/v1/apps/\(served.appID)/credentials/apns", credentials)
            #expect(stored["authentication"] as? String == "certificate")
            #expect(stored["expiresSoon"] as? Bool == false)
            let token = String(repeating: "0c", count: 32)
            _ = try await served.call("POST", "/v1/devices", ["platform": "ios", "token": token])

            let deliveries = try await served.sendToAll(expecting: 1)
            #expect(deliveries.first?["state"] as? String == "sent", "\(deliveries)")
            let request = try #require(try peer.requests(for: token).first)
            let headers = request["headers"] as? [String: Any] ?? [:]
            #expect(headers["authorization"] == nil)
            #expect(headers["apns-topic"] as? String == "com.example.app")
            served.server.stop()
        }

        /// A token the environment it was sent to does not know (a production token sent to the
        /// sandbox): the device is deactivated, not retried in the other environment, and the log
        /// names the environment it went to.
        @Test func aTokenSentToTheWrongEnvironmentSaysWhichOneItWentTo() async throws {
            let token = String(repeating: "0b", count: 32)
            let fixture = try await APNsFixture.start(script: ["tokens": [token: [["status": 400, "reason": "BadDeviceToken"]]]])
            let sender = fixture.sender()
            var credentials = fixture.credentials
            credentials.environment = .sandbox
            let outcomes = await sender.send([fixture.push(token, credentials: credentials)])
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.deactivateDevice])
            #expect(outcomes.first?.explanation?.hasSuffix("It was sent to the sandbox environment.") == true, "\(outcomes)")
            #expect(try fixture.peer.requests().count == 1, "sent once, to one environment")
        }
    }
}
