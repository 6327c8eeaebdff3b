import Foundation
import NotibaseCore
import Testing
@testable import NotibaseSenders

extension PeerTests {
    @Suite("APNs sender against a local HTTP/2 APNs")
    struct APNsSenderTests {
        @Test("an accepted push is sent, records apns-id, and carries a JWT the peer verified")
        func acceptedPush() async throws {
            let fixture = try await APNsFixture.start()
            let sender = fixture.sender()
            let push = fixture.push(deviceToken(1))
            let outcomes = await sender.send([push])
            await sender.shutdown()
            #expect(outcomes == [SendOutcome(disposition: .sent, providerID: push.deliveryID, status: 200)])
            let requests = try fixture.peer.requests()
            #expect(requests.count == 1)
            let headers = try #require(requests.first?["headers"] as? [String: Any])
            #expect(headers["apns-topic"] as? String == "com.example.app")
            #expect(headers["apns-push-type"] as? String == "alert")
            #expect((headers["authorization"] as? String)?.hasPrefix("bearer ") == true)
        }

        @Test("no more connections than the cap, however large the batch")
        func connectionCap() async throws {
            let fixture = try await APNsFixture.start()
            let sender = fixture.sender { $0.maxConnectionsPerApp = 2 }
            let outcomes = await sender.send((0..<600).map { fixture.push(deviceToken($0)) })
            await sender.shutdown()
            #expect(outcomes.allSatisfy { $0.disposition == .sent })
            #expect(try fixture.peer.connectionCount() <= 2)
        }

        @Test("a batch is multiplexed over the capped number of connections and every push gets its own outcome")
        func batchOverCappedConnections() async throws {
            let fixture = try await APNsFixture.start(script: ["tokens": [deviceToken(3): [["status": 410, "reason": "Unregistered", "timestamp": 1_700_000_000_000]]]])
            let sender = fixture.sender { $0.maxConnectionsPerApp = 1 }
            let pushes = (0..<300).map { fixture.push(deviceToken($0)) }
            let outcomes = await sender.send(pushes)
            await sender.shutdown()
            #expect(outcomes.count == 300)
            #expect(outcomes.filter { $0.disposition == .sent }.count == 299)
            #expect(outcomes[3].disposition == .deactivateDevice)
            #expect(outcomes[3].tokenInvalidSince == Date(timeIntervalSince1970: 1_700_000_000))
            #expect(outcomes[4].providerID == pushes[4].deliveryID)
            #expect(try fixture.peer.connectionCount() == 1)
            #expect(try fixture.peer.providerTokens().count == 1, "one provider token is reused for the whole batch")
        }

        @Test("the provider token is reused across batches and connections")
        func tokenReused() async throws {
            let fixture = try await APNsFixture.start()
            let sender = fixture.sender { $0.maxConnectionsPerApp = 1 }
            for round in 0..<3 { _ = await sender.send([fixture.push(deviceToken(round))]) }
            await sender.shutdown()
            #expect(try fixture.peer.providerTokens().count == 1)
            #expect(try fixture.peer.connectionCount() == 1, "the connection is reused between batches")
        }

        @Test("a JWT signed by a key APNs does not know is refused: one new token, then the credentials are rejected")
        func unknownKey() async throws {
            let fixture = try await APNsFixture.start()
            let other = try TestAPNsKey(keyID: fixture.key.keyID, teamID: fixture.key.teamID)
            let credentials = APNsCredentials(appID: "app-1", bundleID: "com.example.app", environment: .production,
                                              authentication: .token(privateKeyPEM: other.privateKeyPEM, keyID: other.keyID, teamID: other.teamID))
            let sender = fixture.sender()
            let outcomes = await sender.send([fixture.push(deviceToken(1), credentials: credentials)])
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.credentialsRejected])
            #expect(outcomes.first?.providerReason == "InvalidProviderToken")
            #expect(try fixture.peer.providerTokens().count == 2, "the token is replaced once before giving up")
        }

        @Test("an unreadable .p8 key rejects the credentials without contacting APNs or revealing the key")
        func unreadableKey() async throws {
            let fixture = try await APNsFixture.start()
            let secret = "-----BEGIN PRIVATE KEY-----\nTOPSECRETNOTBASE64!!\n-----END PRIVATE KEY-----\n"
            let credentials = APNsCredentials(appID: "app-2", bundleID: "com.example.app", environment: .production,
                                              authentication: .token(privateKeyPEM: secret, keyID: "K", teamID: "T"))
            let sender = fixture.sender()
            let outcomes = await sender.send([fixture.push(deviceToken(1), credentials: credentials)])
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.credentialsRejected])
            #expect(outcomes.first?.explanation?.contains("TOPSECRET") == false)
            #expect(try fixture.peer.requests().isEmpty)
        }

        @Test("a payload over 4096 bytes is refused by APNs and given up")
        func payloadTooLarge() async throws {
            let fixture = try await APNsFixture.start()
            let sender = fixture.sender()
            let body = Array(("{\"aps\":{\"alert\":\"" + String(repeating: "x", count: 4200) + "\"}}").utf8)
            let outcomes = await sender.send([fixture.push(deviceToken(1), body: body)])
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.failed])
            #expect(outcomes.first?.providerReason == "PayloadTooLarge")
            #expect(outcomes.first?.status == 413)
        }

        @Test("certificate authentication presents the app's client certificate and sends no JWT")
        func certificateAuthentication() async throws {
            let peer = try await TestPeer.start(.apns, arguments: ["--require-client-certificate"])
            let credentials = try peer.certificateCredentials()
            let sender = peer.apnsSender()
            let fixture = try await APNsFixture.start()
            let outcomes = await sender.send([fixture.push(deviceToken(9), credentials: credentials)])
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.sent])
            let headers = try #require(try peer.requests().first?["headers"] as? [String: Any])
            #expect(headers["authorization"] == nil)
        }

        @Test("a peer that demands a client certificate the app does not have: retry outcomes, not a hang")
        func missingClientCertificate() async throws {
            let keys = try await APNsFixture.start()
            let peer = try await TestPeer.start(.apns, arguments: ["--require-client-certificate"])
            var configuration = APNsSenderConfiguration.peer(url: peer.url, caFile: peer.caFile)
            configuration.requestTimeout = .seconds(5)
            let sender = APNsSender(configuration: configuration)
            let outcomes = await sender.send([keys.push(deviceToken(1))])
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.retry])
            #expect(try peer.requests().isEmpty)
        }

        @Test("sandbox credentials go to the sandbox host, production ones to the production host")
        func environments() async throws {
            let fixture = try await APNsFixture.start()
            var configuration = APNsSenderConfiguration(productionURL: fixture.peer.url, sandboxURL: "https://127.0.0.1:1", caFile: fixture.peer.caFile)
            configuration.requestTimeout = .seconds(5)
            let sender = APNsSender(configuration: configuration)
            var sandbox = fixture.credentials
            sandbox.environment = .sandbox
            let outcomes = await sender.send([fixture.push(deviceToken(1)), fixture.push(deviceToken(2), credentials: sandbox)])
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.sent, .retry])
            #expect(try fixture.peer.requestedTokens() == [deviceToken(1)])
        }

        @Test("a peer that is not there gives retry outcomes, not a hang")
        func nobodyListening() async throws {
            let fixture = try await APNsFixture.start()
            let url = fixture.peer.url
            fixture.peer.stop()
            var configuration = APNsSenderConfiguration.peer(url: url, caFile: fixture.peer.caFile)
            configuration.requestTimeout = .seconds(3)
            let sender = APNsSender(configuration: configuration)
            let outcomes = await sender.send([fixture.push(deviceToken(1)), fixture.push(deviceToken(2))])
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.retry, .retry])
            #expect(outcomes.first?.explanation?.contains("connect") == true)
        }

        @Test("pushes that are not APNs pushes fail without reaching APNs")
        func wrongProvider() async throws {
            let fixture = try await APNsFixture.start()
            let sender = fixture.sender()
            let fcm = Push(deliveryID: "d", request: .fcm(FCMRequest(deviceToken: "t", body: [])), credentials: .apns(fixture.credentials))
            let outcomes = await sender.send([fcm, fixture.push(deviceToken(1))])
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.failed, .sent])
            #expect(try fixture.peer.requests().count == 1)
        }
    }
}
