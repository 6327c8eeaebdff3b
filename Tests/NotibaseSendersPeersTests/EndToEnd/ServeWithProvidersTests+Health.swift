import Foundation
import Testing
import NotibaseTestSupport
@testable import NotibaseSenders

/// Credential health with the real senders against the local APNs and FCM peers: both turn
/// `failing` when the provider refuses the app's credentials (APNs' InvalidProviderToken, Google's
/// invalid_grant), with the reason, and `ok` again once it accepts them, each change logged at
/// warning level without a secret.
extension PeerTests.ServeWithProvidersTests {
    @Test func credentialHealthTurnsFailingAndBackToOKAgainstThePeers() async throws {
        let iphone = String(repeating: "0c", count: 32)
        let apns = try await APNsFixture.start(script: ["tokens": [iphone: [["status": 403, "reason": "InvalidProviderToken"]]]])
        let fcm = try await FCMFixture.start(script: ["endpoints": ["token": [["status": 400, "oauth_error": "invalid_grant"]]]])
        let data = TemporaryDirectory("notibase-serve-health")
        let (server, base) = try Self.serve(data, logLevel: "warning", [
            "--apns-url", apns.peer.url, "--apns-ca", apns.peer.caFile,
            "--fcm-url", fcm.peer.url, "--fcm-token-url", fcm.peer.url + "/token", "--fcm-ca", fcm.peer.caFile,
        ])

        let app = try await call(base, "POST", "/v1/apps", Self.admin, #"{"name":"Health"}"#)
        let appID = try #require(app["id"] as? String)
        let key = try #require(app["serverKey"] as? String)
        func json(_ object: [String: Any]) throws -> String { String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self) }
        _ = try await call(base, "PUT", "/v1/apps/\(appID)/credentials/apns", key, try json([
            "keyId": apns.key.keyID, "teamId": apns.key.teamID, "bundleId": "com.example.app", "environment": "production", "privateKey": apns.key.privateKeyPEM,
        ]))
        _ = try await call(base, "PUT", "/v1/apps/\(appID)/credentials/fcm", key, try json([
            "type": "service_account", "project_id": fcm.account.projectID, "client_email": fcm.account.clientEmail,
            "private_key": fcm.account.privateKeyPEM, "token_uri": fcm.peer.url + "/token",
        ]))
        _ = try await call(base, "POST", "/v1/devices", key, #"{"platform":"ios","token":"\#(iphone)"}"#)
        _ = try await call(base, "POST", "/v1/devices", key, #"{"platform":"android","token":"\#(registrationToken(1))"}"#)

        /// Sends to everyone and waits until both providers' health is `state`.
        func sendUntil(_ state: String) async throws -> [String: Any] {
            _ = try await call(base, "POST", "/v1/messages", key, #"{"message":{"title":"Hello"},"audience":{"all":true}}"#)
            var credentials: [String: Any] = [:]
            for _ in 0..<300 {
                credentials = try await call(base, "GET", "/v1/apps/\(appID)", key, nil)["credentials"] as? [String: Any] ?? [:]
                let states = ["apns", "fcm"].map { ((credentials[$0] as? [String: Any])?["health"] as? [String: Any])?["state"] as? String }
                if states == [state, state] { return credentials }
                try await Task.sleep(for: .milliseconds(100))
            }
            Issue.record("the credentials did not turn \(state): \(credentials)")
            return credentials
        }
        func health(_ credentials: [String: Any], _ provider: String) -> [String: Any] {
            (credentials[provider] as? [String: Any])?["health"] as? [String: Any] ?? [:]
        }

        let failing = try await sendUntil("failing")
        #expect((health(failing, "apns")["lastFailureReason"] as? String)?.contains("InvalidProviderToken") == true)
        #expect((health(failing, "fcm")["lastFailureReason"] as? String)?.contains("invalid_grant") == true)
        #expect(health(failing, "apns")["lastSuccessAt"] is NSNull)

        try apns.peer.script([:])
        try fcm.peer.script([:])
        let ok = try await sendUntil("ok")
        #expect(health(ok, "apns")["lastSuccessAt"] is String && health(ok, "fcm")["lastSuccessAt"] is String)
        #expect(health(ok, "apns")["lastFailureAt"] is String, "the last failure is kept")

        server.stop()
        let logged = server.standardErrorText.split(separator: "\n").map(String.init)
        for provider in ["apns", "fcm"] {
            #expect(logged.contains { $0.contains(#""level":"warning""#) && $0.contains("credentials failing") && $0.contains(#""provider":"\#(provider)""#) })
            #expect(logged.contains { $0.contains(#""level":"warning""#) && $0.contains("credentials recovered") && $0.contains(#""provider":"\#(provider)""#) })
        }
        let secrets = [apns.key.privateKeyPEM, fcm.account.privateKeyPEM].map { String($0.split(separator: "\n")[1]) } + [key, Self.admin]
        for line in logged { #expect(!secrets.contains { line.contains($0) }, "\(line) holds a secret") }
    }
}
