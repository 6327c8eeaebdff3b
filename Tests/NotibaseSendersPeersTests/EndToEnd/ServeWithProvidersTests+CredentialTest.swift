import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import NotibaseTestSupport
@testable import NotibaseSenders

/// Credentials tried on upload and on demand by `notibase serve` with the real senders, against
/// the local APNs and FCM peers: the upload answers `testing`, both turn `verified` (APNs's
/// BadDeviceToken for the token that is nobody's, FCM's validate_only dry run), a key APNs does not
/// know is `rejected` on demand with its reason and fix, and /metrics counts the tests, not as sends.
extension PeerTests.ServeWithProvidersTests {
    @Test func uploadedCredentialsAreTriedWithThePeers() async throws {
        let apns = try await APNsFixture.start()
        let fcm = try await FCMFixture.start()
        let data = TemporaryDirectory("notibase-serve-credential-test")
        let (server, base) = try Self.serve(data, logLevel: "warning", [
            "--apns-url", apns.peer.url, "--apns-ca", apns.peer.caFile,
            "--fcm-url", fcm.peer.url, "--fcm-token-url", fcm.peer.url + "/token", "--fcm-ca", fcm.peer.caFile,
        ])
        let app = try await call(base, "POST", "/v1/apps", Self.admin, #"{"name":"Tried"}"#)
        let appID = try #require(app["id"] as? String)
        let key = try #require(app["serverKey"] as? String)
        func json(_ object: [String: Any]) throws -> String { String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self) }
        func apnsBody(_ keyID: String, _ pem: String) throws -> String {
            try json(["keyId": keyID, "teamId": apns.key.teamID, "bundleId": "com.example.app", "environment": "production", "privateKey": pem])
        }

        let uploaded = try await call(base, "PUT", "/v1/apps/\(appID)/credentials/apns", key, try apnsBody(apns.key.keyID, apns.key.privateKeyPEM))
        #expect((uploaded["test"] as? [String: Any])?["state"] as? String == "testing")
        let account = try await call(base, "PUT", "/v1/apps/\(appID)/credentials/fcm", key, try json([
            "type": "service_account", "project_id": fcm.account.projectID, "client_email": fcm.account.clientEmail,
            "private_key": fcm.account.privateKeyPEM, "token_uri": fcm.peer.url + "/token",
        ]))
        #expect((account["test"] as? [String: Any])?["state"] as? String == "testing")

        var tests: [String: [String: Any]] = [:]
        for _ in 0..<300 {
            let credentials = try await call(base, "GET", "/v1/apps/\(appID)", key, nil)["credentials"] as? [String: Any] ?? [:]
            tests = credentials.compactMapValues { ($0 as? [String: Any])?["test"] as? [String: Any] }
            if tests.values.allSatisfy({ $0["state"] as? String != "testing" }) && tests.count == 2 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(tests["apns"]?["state"] as? String == "verified")
        #expect(tests["apns"]?["reason"] as? String == "BadDeviceToken")
        #expect(tests["fcm"]?["state"] as? String == "verified")
        #expect(try apns.peer.requestedTokens() == [CredentialTest.apnsToken])
        #expect(try fcm.peer.messageRequests().allSatisfy { ($0["answer"] as? [String: Any])?["validate_only"] as? Bool == true })

        // A key APNs does not know, tested on demand.
        let stranger = try TestAPNsKey(keyID: "ZZZ999YYYX")
        _ = try await call(base, "PUT", "/v1/apps/\(appID)/credentials/apns", key, try apnsBody(stranger.keyID, stranger.privateKeyPEM))
        let answer = try await call(base, "POST", "/v1/apps/\(appID)/credentials/apns/test", key, nil)
        #expect(answer["state"] as? String == "rejected")
        #expect(answer["reason"] as? String == "InvalidProviderToken")
        #expect((answer["fix"] as? String)?.contains("the key ID, the team ID") == true)

        let devices = try await call(base, "GET", "/v1/devices", key, nil)["items"] as? [Any] ?? []
        #expect(devices.isEmpty, "the test token is no device")
        var request = URLRequest(url: URL(string: "/metrics", relativeTo: base)!)
        request.setValue("Bearer " + Self.admin, forHTTPHeaderField: "Authorization")
        let metrics = String(decoding: try await URLSession.shared.data(for: request).0, as: UTF8.self)
        #expect(metrics.contains(#"notibase_credentials_test_total{provider="fcm",state="verified"} 1"#))
        #expect(metrics.contains(#"notibase_credentials_test_total{provider="apns",state="rejected"}"#))
        #expect(!metrics.contains("notibase_sends_total{"), "a test is not a send")
        server.stop()
    }
}
