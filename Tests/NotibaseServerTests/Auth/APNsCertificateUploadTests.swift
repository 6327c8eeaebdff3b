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

/// Certificate authentication for APNs: a push certificate and its key, as PEM or as a PKCS#12
/// file, checked at upload (400 naming the field), its expiry shown and warned about 30 days
/// ahead, and handed to the sender as a TLS client certificate.
@Suite("APNs certificate upload")
struct APNsCertificateUploadTests {
    static let certificate = Result { try TestCertificate() }

    static func body(_ fields: [String: String]) -> String {
        let all = fields.merging(["bundleId": "com.example.app", "environment": "production"]) { given, _ in given }
        return String(decoding: try! JSONSerialization.data(withJSONObject: all), as: UTF8.self)
    }

    func put(_ harness: Harness, _ app: TestApp, _ fields: [String: String]) async -> Reply {
        await harness.request("PUT", "/v1/apps/\(app.id)/credentials/apns", key: app.serverKey, body: Self.body(fields))
    }

    @Test func aPEMCertificateAndItsKeyAreStoredAndShownWithTheirExpiry() async throws {
        let certificate = try Self.certificate.get()
        let harness = try await Harness()
        let app = try await harness.createApp()
        let reply = await put(harness, app, ["certificate": certificate.certificatePEM, "certificateKey": certificate.keyPEM])
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply["authentication"].string == "certificate")
        #expect(reply["subject"].string == "Apple Push Services: com.example.app")
        #expect(reply["expiresSoon"] == .bool(false))
        #expect(reply["expiresAt"].string.flatMap(Timestamp.parse) != nil)
        #expect(!reply.text.contains("PRIVATE KEY") && !reply.text.contains("CERTIFICATE"))
        let shown = await harness.request("GET", "/v1/apps/\(app.id)", key: app.serverKey)["credentials"]["apns"]
        #expect(shown["expiresAt"] == reply["expiresAt"])
        #expect(shown["expiresSoon"] == .bool(false))
        #expect(shown["health"]["state"].string == "untested", "the certificate's summary sits beside its health")

        // The sender gets the certificate and key as a TLS client certificate.
        let vault = CredentialVault(store: harness.store, box: try SecretBox(key: Harness.secretKey))
        guard case .apns(let credentials)? = try await vault.credentials(appID: app.id, platform: .ios),
              case .certificate(let certificatePEM, let keyPEM) = credentials.authentication else {
            Issue.record("no certificate credentials")
            return
        }
        #expect(certificatePEM == certificate.certificatePEM && keyPEM == certificate.keyPEM)
        #expect(credentials.environment == .production && credentials.bundleID == "com.example.app")
    }

    @Test(arguments: [false, true])
    func aPKCS12FileWithItsPasswordIsStoredAsPEM(legacy: Bool) async throws {
        let certificate = try Self.certificate.get()
        let harness = try await Harness()
        let app = try await harness.createApp()
        let reply = await put(harness, app, ["pkcs12": legacy ? certificate.legacyPKCS12Base64 : certificate.pkcs12Base64, "pkcs12Password": TestCertificate.password])
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply["authentication"].string == "certificate")
        let vault = CredentialVault(store: harness.store, box: try SecretBox(key: Harness.secretKey))
        guard case .apns(let credentials)? = try await vault.credentials(appID: app.id, platform: .ios),
              case .certificate(let certificatePEM, let keyPEM) = credentials.authentication else {
            Issue.record("no certificate credentials")
            return
        }
        #expect(certificatePEM == certificate.certificatePEM)
        #expect(keyPEM.contains("-----BEGIN PRIVATE KEY-----"))
    }

    /// Every way an upload can be wrong: a 400 naming the field to fix.
    @Test func everyBadUploadIsRefusedNamingTheField() async throws {
        let certificate = try Self.certificate.get()
        let harness = try await Harness()
        let app = try await harness.createApp()
        let cases: [(fields: [String: String], field: String)] = [
            (["certificate": "-----BEGIN CERTIFICATE-----\nnot one\n-----END CERTIFICATE-----", "certificateKey": certificate.keyPEM], "certificate"),
            (["certificate": certificate.certificatePEM, "certificateKey": "-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----"], "certificateKey"),
            (["certificate": certificate.certificatePEM, "certificateKey": certificate.otherKeyPEM], "certificateKey"),
            (["certificate": certificate.certificatePEM], "certificateKey"),
            (["pkcs12": "bm90IGEgcDEy", "pkcs12Password": "x"], "pkcs12"),
            (["pkcs12": "%%%", "pkcs12Password": "x"], "pkcs12"),
            (["pkcs12": certificate.pkcs12Base64, "pkcs12Password": "wrong"], "pkcs12Password"),
            (["pkcs12": certificate.pkcs12Base64, "certificate": certificate.certificatePEM, "certificateKey": certificate.keyPEM], "pkcs12"),
            (["certificate": certificate.certificatePEM, "certificateKey": certificate.keyPEM, "keyId": "ABC123DEFG"], "keyId"),
            (["certificateKey": certificate.keyPEM, "keyId": "ABC123DEFG", "teamId": "TEAM123456", "privateKey": "-----BEGIN PRIVATE KEY-----"], "certificateKey"),
            (["certificate": certificate.certificatePEM, "certificateKey": certificate.keyPEM, "environment": "staging"], "environment"),
        ]
        for (fields, field) in cases {
            let reply = await put(harness, app, fields)
            #expect(reply.status == 400, "\(fields.keys.sorted()): \(reply.text)")
            #expect(reply["error"]["field"].string == field, "\(fields.keys.sorted()): \(reply.text)")
        }
        #expect(try await harness.store.credentials(appID: app.id).isEmpty)
    }

    /// 30 days before it expires the summary says so and the log warns (at upload, and once a day
    /// while the workers send with it); an expired certificate is refused.
    @Test func expiryIsWarnedAbout30DaysAheadAndAnExpiredCertificateIsRefused() async throws {
        let certificate = try Self.certificate.get()
        let captured = Mutex<[String]>([])
        let logger = Logger(minimumLevel: .info) { line in captured.withLock { $0.append(line) } }
        let harness = try await Harness(logger: logger)
        let app = try await harness.createApp()
        let expiresAt = try #require(await put(harness, app, ["certificate": certificate.certificatePEM, "certificateKey": certificate.keyPEM])["expiresAt"]
            .string.flatMap(Timestamp.parse))
        #expect(!captured.withLock { $0 }.contains { $0.contains("expires soon") })

        // 29 days before: expiresSoon, and a warning on upload.
        harness.advance(expiresAt.timeIntervalSince(harness.time.now) - 29 * 86_400)
        let again = await put(harness, app, ["certificate": certificate.certificatePEM, "certificateKey": certificate.keyPEM])
        #expect(again["expiresSoon"] == .bool(true))
        #expect(await harness.request("GET", "/v1/apps/\(app.id)", key: app.serverKey)["credentials"]["apns"]["expiresSoon"] == .bool(true))
        let warnings = captured.withLock { $0 }.filter { $0.contains(#""level":"warning""#) && $0.contains("APNs certificate expires soon") }
        #expect(warnings.count == 1, "\(captured.withLock { $0 })")
        #expect(warnings.allSatisfy { $0.contains(app.id) && !$0.contains("PRIVATE KEY") })

        // The workers warn once a day while they send with it.
        let vault = CredentialVault(store: harness.store, box: try SecretBox(key: Harness.secretKey), clock: harness.time.wallClock, logger: logger)
        for _ in 0..<3 { _ = try await vault.credentials(appID: app.id) }
        #expect(captured.withLock { $0 }.filter { $0.contains("APNs certificate expires soon") }.count == 2)
        harness.advance(86_400)
        _ = try await vault.credentials(appID: app.id)
        #expect(captured.withLock { $0 }.filter { $0.contains("APNs certificate expires soon") }.count == 3)

        // Past its end: refused, naming the field it came in.
        harness.advance(30 * 86_400)
        let expired = await put(harness, app, ["certificate": certificate.certificatePEM, "certificateKey": certificate.keyPEM])
        #expect(expired.status == 400)
        #expect(expired["error"]["field"].string == "certificate")
        let expiredPKCS12 = await put(harness, app, ["pkcs12": certificate.pkcs12Base64, "pkcs12Password": TestCertificate.password])
        #expect(expiredPKCS12["error"]["field"].string == "pkcs12")
    }
}
