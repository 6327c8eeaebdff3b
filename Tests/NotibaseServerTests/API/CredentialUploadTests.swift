import Foundation
import NotibaseCore
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

/// A credential that can never sign is refused at upload: a 400 naming the field, and nothing
/// stored. Before, a malformed .p8 or a made-up service account was accepted, and every delivery
/// then waited on "credentials rejected" with nothing to say why.
@Suite struct CredentialUploadTests {
    static let garbageKey = "-----BEGIN PRIVATE KEY-----\nSECRETSECRETSECRET\n-----END PRIVATE KEY-----"

    /// Each APNs field, wrong in each way the upload checks: (changes, the field named).
    static let apnsCases: [([String: String?], String)] = [
        (["keyId": "abc123defg"], "keyId"),
        (["keyId": "ABC123DEF"], "keyId"),
        (["keyId": "ABC-23DEFG"], "keyId"),
        (["keyId": nil], "keyId"),
        (["teamId": "team123456"], "teamId"),
        (["teamId": "TEAM1234567"], "teamId"),
        (["teamId": nil], "teamId"),
        (["bundleId": "shop"], "bundleId"),
        (["bundleId": "com..shop"], "bundleId"),
        (["bundleId": "com.example shop"], "bundleId"),
        (["bundleId": "com.example.shop."], "bundleId"),
        (["bundleId": nil], "bundleId"),
        (["privateKey": garbageKey], "privateKey"),
        (["privateKey": "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg"], "privateKey"),
        (["privateKey": TestCredentials.p384Key], "privateKey"),
        (["privateKey": TestCredentials.rsaKey], "privateKey"),
        (["privateKey": nil], "privateKey"),
    ]

    /// Each service account field, missing or wrong.
    static let fcmCases: [([String: String?], String)] = [
        (["type": nil], "type"),
        (["type": "authorized_user"], "type"),
        (["project_id": nil], "project_id"),
        (["project_id": ""], "project_id"),
        (["private_key": nil], "private_key"),
        (["private_key": garbageKey], "private_key"),
        (["private_key": TestCredentials.p256Key], "private_key"),
        (["client_email": nil], "client_email"),
        (["client_email": "push-at-demo-shop"], "client_email"),
        (["client_email": "push@localhost"], "client_email"),
        (["token_uri": nil], "token_uri"),
        (["token_uri": "https://127.0.0.1:22/token"], "token_uri"),
    ]

    /// One bad upload: the provider's path, the fields changed, and the field the 400 must name.
    struct Upload: Sendable, CustomTestStringConvertible {
        var provider: String
        var changes: [String: String?]
        var field: String
        var body: String { provider == "apns" ? TestCredentials.apns(changes) : TestCredentials.serviceAccount(changes) }
        var testDescription: String { "\(provider) \(field): \(changes.mapValues { $0.map { String($0.prefix(24)) } ?? "(missing)" })" }
    }

    static let uploads = apnsCases.map { Upload(provider: "apns", changes: $0.0, field: $0.1) }
        + fcmCases.map { Upload(provider: "fcm", changes: $0.0, field: $0.1) }

    @Test(arguments: uploads)
    func aBadUploadIsRefusedNamingTheField(_ upload: Upload) async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let reply = await harness.request("PUT", "/v1/apps/\(app.id)/credentials/\(upload.provider)", key: app.serverKey, body: upload.body)
        #expect(reply.status == 400)
        #expect(reply["error"]["field"].string == upload.field, "\(reply.text)")
        #expect(!reply.text.contains("SECRETSECRET") && !reply.text.contains("MIGHAgEAMBMGBy"), "no key material in the answer")
        #expect(try await harness.store.credentials(appID: app.id).isEmpty, "nothing stored")
    }

    @Test func workingCredentialsAreStoredUntested() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        #expect(await harness.request("PUT", "/v1/apps/\(app.id)/credentials/apns", key: app.serverKey, body: TestCredentials.apns()).status == 200)
        #expect(await harness.request("PUT", "/v1/apps/\(app.id)/credentials/fcm", key: app.serverKey, body: TestCredentials.serviceAccount()).status == 200)
        let shown = await harness.request("GET", "/v1/apps/\(app.id)", key: app.serverKey)
        for provider in ["apns", "fcm"] {
            let health = shown["credentials"][provider]["health"]
            #expect(health["state"].string == "untested")
            #expect(health["lastSuccessAt"] == .null && health["lastFailureAt"] == .null && health["lastFailureReason"] == .null)
        }
        #expect(shown["credentials"]["apns"]["keyId"].string == "ABC123DEFG")
    }

    /// Tests point the FCM sender at a local peer (`--fcm-token-url`): then any https token_uri
    /// passes, the rest of the service account is still checked.
    @Test func anOperatorsTokenURLAcceptsAnyHTTPSTokenURIButChecksTheRest() async throws {
        let harness = try await Harness(acceptsAnyFCMTokenURI: true)
        let app = try await harness.createApp()
        let peer = await harness.request(
            "PUT", "/v1/apps/\(app.id)/credentials/fcm", key: app.serverKey, body: TestCredentials.serviceAccount(["token_uri": "https://127.0.0.1:9/token"]))
        #expect(peer.status == 200)
        let plain = await harness.request(
            "PUT", "/v1/apps/\(app.id)/credentials/fcm", key: app.serverKey, body: TestCredentials.serviceAccount(["token_uri": "http://127.0.0.1:9/token"]))
        #expect(plain["error"]["field"].string == "token_uri")
        let key = await harness.request(
            "PUT", "/v1/apps/\(app.id)/credentials/fcm", key: app.serverKey, body: TestCredentials.serviceAccount(["private_key": Self.garbageKey]))
        #expect(key["error"]["field"].string == "private_key")
    }
}
