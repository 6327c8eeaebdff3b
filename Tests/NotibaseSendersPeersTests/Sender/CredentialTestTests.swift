import Foundation
import NotibaseCore
import Testing
@testable import NotibaseSenders
import NotibaseTestSupport

extension PeerTests {
    /// One test per answer: the credential test push (``CredentialTest``) against the local APNs
    /// and FCM peers, and what each answer says of the credentials.
    @Suite("Credential tests against the local APNs and FCM")
    struct CredentialTestTests {
        /// The test push for the fixture's credentials (or `credentials`), sent and read.
        private func apnsVerdict(_ fixture: APNsFixture, _ credentials: APNsCredentials? = nil) async -> CredentialVerdict {
            let sender = fixture.sender()
            let outcomes = await sender.send([CredentialTest.push(.apns(credentials ?? fixture.credentials))])
            await sender.shutdown()
            return CredentialTest.verdict(of: outcomes[0])
        }

        private func fcmVerdict(_ fixture: FCMFixture, _ credentials: FCMCredentials? = nil) async -> CredentialVerdict {
            let sender = fixture.sender()
            let outcomes = await sender.send([CredentialTest.push(.fcm(credentials ?? fixture.credentials))])
            await sender.shutdown()
            return CredentialTest.verdict(of: outcomes[0])
        }

        @Test("APNs: BadDeviceToken for the token that is nobody's means the key, team and topic are accepted")
        func apnsVerified() async throws {
            let fixture = try await APNsFixture.start(script: ["topics": ["com.example.app"]])
            let verdict = await apnsVerdict(fixture)
            #expect(verdict == CredentialVerdict(state: .verified, reason: "BadDeviceToken"))
            let request = try #require(try fixture.peer.requests().first)
            #expect(request["path"] as? String == "/3/device/" + String(repeating: "0", count: 48) + "6e6f746962617365")
            let headers = try #require(request["headers"] as? [String: Any])
            #expect(headers["apns-push-type"] as? String == "background")
            #expect(headers["apns-topic"] as? String == "com.example.app")
        }

        @Test("APNs: a key APNs does not know is InvalidProviderToken, rejected with what to check")
        func apnsInvalidProviderToken() async throws {
            let fixture = try await APNsFixture.start()
            let stranger = try TestAPNsKey(keyID: "ZZZ999YYYX")
            var credentials = fixture.credentials
            credentials.authentication = .token(privateKeyPEM: stranger.privateKeyPEM, keyID: stranger.keyID, teamID: stranger.teamID)
            let verdict = await apnsVerdict(fixture, credentials)
            #expect(verdict.state == .rejected)
            #expect(verdict.reason == "InvalidProviderToken")
            #expect(verdict.fix?.contains("check the key ID, the team ID") == true)
        }

        @Test("APNs: a bundle ID that is not the key's topic is BadTopic, rejected")
        func apnsBadTopic() async throws {
            let fixture = try await APNsFixture.start(script: ["topics": ["com.example.other"]])
            let verdict = await apnsVerdict(fixture)
            #expect(verdict.state == .rejected)
            #expect(verdict.reason == "BadTopic")
            #expect(verdict.fix?.contains("bundle ID") == true)
        }

        @Test("APNs: each refusal of the credentials is rejected with its reason and the table's fix", arguments: [
            (400, "TopicDisallowed", "push capability"),
            (403, "BadCertificate", "upload a valid push certificate"),
            (403, "BadCertificateEnvironment", "other environment"),
            (403, "Forbidden", "forbids"),
            (403, "", "refused the credentials"),
        ])
        func apnsRejected(status: Int, reason: String, fix: String) async throws {
            let nobody = CredentialTest.apnsToken
            let fixture = try await APNsFixture.start(script: ["tokens": [nobody: [["status": status, "reason": reason]]]])
            let verdict = await apnsVerdict(fixture)
            #expect(verdict.state == .rejected)
            #expect(verdict.reason == (reason.isEmpty ? "HTTP \(status)" : reason))
            #expect(verdict.fix?.contains(fix) == true, "\(verdict)")
        }

        @Test("APNs: nothing listening is unreachable, not rejected")
        func apnsUnreachable() async throws {
            let fixture = try await APNsFixture.start()
            let sender = APNsSender(configuration: .peer(url: "https://127.0.0.1:1", caFile: fixture.peer.caFile))
            let outcomes = await sender.send([CredentialTest.push(.apns(fixture.credentials))])
            await sender.shutdown()
            let verdict = CredentialTest.verdict(of: outcomes[0])
            #expect(verdict.state == .unreachable)
            #expect(verdict.fix?.isEmpty == false)
        }

        @Test("FCM: the token exchange, then a validate_only dry run to a topic answered 200, is verified; nothing is sent")
        func fcmVerified() async throws {
            let fixture = try await FCMFixture.start()
            let verdict = await fcmVerdict(fixture)
            #expect(verdict == CredentialVerdict(state: .verified))
            #expect(try fixture.peer.tokenRequests() == 1)
            let answer = try #require(try fixture.peer.messageRequests().first?["answer"] as? [String: Any])
            #expect(answer["validate_only"] as? Bool == true, "a dry run")
            #expect(answer["device"] as? String == CredentialTest.fcmTopic, "to the test topic, no device")
        }

        @Test("FCM: Google refusing the token exchange (invalid_grant) is rejected")
        func fcmTokenExchangeRefused() async throws {
            let fixture = try await FCMFixture.start(script: ["endpoints": ["token": [["status": 400, "oauth_error": "invalid_grant"]]]])
            let verdict = await fcmVerdict(fixture)
            #expect(verdict.state == .rejected)
            #expect(verdict.fix?.contains("invalid_grant") == true)
            #expect(try fixture.peer.messageRequests().isEmpty)
        }

        @Test("FCM: a project the account may not send for (403) is rejected with what to check")
        func fcmProjectForbidden() async throws {
            let fixture = try await FCMFixture.start()
            var credentials = fixture.credentials
            credentials.projectID = "someone-elses-project"
            let verdict = await fcmVerdict(fixture, credentials)
            #expect(verdict.state == .rejected)
            #expect(verdict.reason == "PERMISSION_DENIED")
            #expect(verdict.fix?.contains("roles") == true)
        }

        @Test("FCM: a project FCM does not know (404) is rejected with what to check")
        func fcmProjectNotFound() async throws {
            let fixture = try await FCMFixture.start(script: ["topics": [CredentialTest.fcmTopic: [["status": 404]]]])
            let verdict = await fcmVerdict(fixture)
            #expect(verdict.state == .rejected)
            #expect(verdict.reason == "NOT_FOUND")
            #expect(verdict.fix?.contains("project ID") == true)
        }

        @Test("FCM: nothing listening is unreachable, not rejected")
        func fcmUnreachable() async throws {
            let fixture = try await FCMFixture.start()
            var credentials = fixture.credentials
            credentials.tokenURI = "https://127.0.0.1:1/token"
            let verdict = await fcmVerdict(fixture, credentials)
            #expect(verdict.state == .unreachable)
        }
    }
}
