import Foundation
import NotibaseCore
import Testing
@testable import NotibaseSenders
import NotibaseTestSupport

extension PeerTests {
    @Suite("FCM sender against a local HTTP/2 FCM and OAuth endpoint")
    struct FCMSenderTests {
        @Test("a message is sent with an access token obtained by a verified RS256 assertion; the name is recorded")
        func accepted() async throws {
            let fixture = try await FCMFixture.start()
            let sender = fixture.sender()
            let outcomes = await sender.send([fixture.push(registrationToken(1)), fixture.push(registrationToken(2))])
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.sent, .sent])
            #expect(outcomes.compactMap(\.providerID).allSatisfy { $0.hasPrefix("projects/example-project/messages/") })
            #expect(try fixture.peer.tokenRequests() == 1)
            let headers = try #require(try fixture.peer.messageRequests().first?["headers"] as? [String: Any])
            #expect(headers["authorization"] as? String == "Bearer ya29.test-1")
            #expect((headers["content-type"] as? String)?.hasPrefix("application/json") == true)
        }

        @Test("the access token is cached across batches and replaced shortly before it expires")
        func tokenCaching() async throws {
            let fixture = try await FCMFixture.start(script: ["expires_in": 3600])
            // Starts 56 minutes back so that every assertion's iat stays in Google's (the peer's) past.
            let clock = ManualClock(Date().addingTimeInterval(-56 * 60))
            let sender = fixture.sender { $0.clock = clock.wallClock }
            _ = await sender.send([fixture.push(registrationToken(1))])
            clock.advance(minutes: 54)
            _ = await sender.send([fixture.push(registrationToken(2))])
            #expect(try fixture.peer.tokenRequests() == 1, "reused until 5 minutes before expiry")
            clock.advance(minutes: 1.5)
            let outcomes = await sender.send([fixture.push(registrationToken(3))])
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.sent])
            #expect(try fixture.peer.tokenRequests() == 2)
        }

        @Test("concurrent batches share one token fetch")
        func sharedFetch() async throws {
            let fixture = try await FCMFixture.start()
            let sender = fixture.sender()
            async let first = sender.send([fixture.push(registrationToken(1))])
            async let second = sender.send([fixture.push(registrationToken(2))])
            let outcomes = await first + second
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.sent, .sent])
            #expect(try fixture.peer.tokenRequests() == 1)
        }

        @Test("an access token FCM no longer accepts (401) is replaced once and the message resent")
        func revokedAccessToken() async throws {
            let fixture = try await FCMFixture.start()
            let sender = fixture.sender()
            _ = await sender.send([fixture.push(registrationToken(1))])
            try fixture.peer.script(["revoke_tokens_up_to": 1])
            let outcomes = await sender.send([fixture.push(registrationToken(2))])
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.sent])
            #expect(try fixture.peer.tokenRequests() == 2)
            #expect(try fixture.peer.messageRequests().count == 3)
        }

        @Test("an access token refused even when fresh rejects the credentials after one replacement")
        func accessTokenAlwaysRefused() async throws {
            let fixture = try await FCMFixture.start(script: ["revoke_tokens_up_to": 1000])
            let sender = fixture.sender()
            let outcomes = await sender.send([fixture.push(registrationToken(1))])
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.credentialsRejected])
            #expect(outcomes.first?.status == 401)
            #expect(try fixture.peer.tokenRequests() == 2)
        }

        @Test("a service account Google refuses (invalid_grant) rejects the credentials; no message is sent")
        func refusedAssertion() async throws {
            let fixture = try await FCMFixture.start()
            let other = try TestServiceAccount()
            var credentials = fixture.credentials
            credentials.privateKeyPEM = other.privateKeyPEM
            let sender = fixture.sender()
            let outcomes = await sender.send([fixture.push(registrationToken(1), credentials: credentials)])
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.credentialsRejected])
            #expect(outcomes.first?.explanation?.contains("invalid_grant") == true)
            #expect(outcomes.first?.explanation?.contains(other.privateKeyPEM.dropFirst(30).prefix(20)) == false)
            #expect(try fixture.peer.messageRequests().isEmpty)
        }

        @Test("a token endpoint that is down gives retry, not a credentials failure")
        func tokenEndpointDown() async throws {
            let fixture = try await FCMFixture.start(script: ["endpoints": ["token": [["status": 503]]]])
            let sender = fixture.sender()
            let outcomes = await sender.send([fixture.push(registrationToken(1))])
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.retry])
        }

        @Test("a peer that never answers gives retry within the timeout; a dropped connection is resent")
        func silentAndDropped() async throws {
            let silent = registrationToken(1)
            let dropper = registrationToken(2)
            let fixture = try await FCMFixture.start(script: ["tokens": [silent: [["never": true]], dropper: [["drop": true], ["status": 200]]]])
            let sender = fixture.sender { $0.requestTimeout = .seconds(2) }
            _ = await sender.send([fixture.push(registrationToken(0))]) // token fetched first
            let outcomes = await sender.send([fixture.push(silent), fixture.push(dropper)])
            await sender.shutdown()
            #expect(outcomes[0].disposition == .retry)
            #expect(outcomes[0].explanation?.contains("No answer") == true)
            #expect(outcomes[1].disposition == .sent)
        }

        @Test("the project ID from the service account picks the messages:send URL")
        func projectURL() async throws {
            let fixture = try await FCMFixture.start()
            let sender = fixture.sender()
            _ = await sender.send([fixture.push(registrationToken(1))])
            await sender.shutdown()
            #expect(try fixture.peer.messageRequests().first?["path"] as? String == "/v1/projects/example-project/messages:send")
        }
    }
}
