import Foundation
import NotibaseCore
import NotibaseSenders
import NotibaseTestSupport
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

/// One app for development and production builds: each iOS device registers the APNs environment
/// of its token (`development` read as `sandbox`), both backends
/// keep it, and the worker sends each device to its own environment with the app's credentials.
@Suite("APNs environment per device")
struct APNsEnvironmentTests {
    static let token = String(repeating: "ab", count: 32)

    @Test(arguments: [("sandbox", APNsEnvironment.sandbox), ("production", .production), ("development", .sandbox)])
    func theEnvironmentIsReadByItsName(name: String, expected: APNsEnvironment) throws {
        let body = Array(#"{"platform":"ios","token":"\#(Self.token)","apnsEnvironment":"\#(name)"}"#.utf8)
        let outcome = RegistrationDecodingTests.routeOutcome(body)
        #expect(outcome == RegistrationDecodingTests.strictOutcome(body))
        guard case .registration(let registration) = outcome else { Issue.record("\(outcome)"); return }
        #expect(registration.apnsEnvironment == expected)
    }

    @Test(arguments: [
        #"{"platform":"ios","token":"\#(token)","apnsEnvironment":"staging"}"#,
        #"{"platform":"ios","token":"\#(token)","apnsEnvironment":"Production"}"#,
        #"{"platform":"android","token":"fcm-0123456789abcdef:xyz","apnsEnvironment":"production"}"#,
    ])
    func anythingElseIsRefusedNamingTheField(body: String) {
        let bytes = Array(body.utf8)
        let outcome = RegistrationDecodingTests.routeOutcome(bytes)
        #expect(outcome == RegistrationDecodingTests.strictOutcome(bytes))
        guard case .error(400, "invalid_field", "apnsEnvironment", _) = outcome else { Issue.record("\(body) gave \(outcome)"); return }
    }

    /// Stored by both backends, through the single and the batch routes; a registration that does
    /// not say keeps it, one that says changes it.
    @Test func theEnvironmentIsStoredKeptAndChanged() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let development = await harness.request("POST", "/v1/devices", key: app.clientKey,
            body: #"{"platform":"ios","token":"\#(Harness.token(1, .ios))","apnsEnvironment":"development"}"#)
        #expect(development.status == 201)
        #expect(development["apnsEnvironment"].string == "sandbox")
        let batch = await harness.request("POST", "/v1/devices/batch", key: app.serverKey, body: #"""
            {"devices": [{"platform":"ios","token":"\#(Harness.token(2, .ios))","apnsEnvironment":"production"},
                         {"platform":"ios","token":"\#(Harness.token(3, .ios))"}]}
            """#)
        #expect(batch.status == 200, "\(batch.text)")
        func environments() async -> [String: String] {
            let items = await harness.request("GET", "/v1/devices", key: app.serverKey)["items"].array
            return Dictionary(uniqueKeysWithValues: items.map { ($0["token"].string ?? "", $0["apnsEnvironment"].string ?? "app's") })
        }
        #expect(await environments() == [Harness.token(1, .ios): "sandbox", Harness.token(2, .ios): "production", Harness.token(3, .ios): "app's"])

        // A registration without it keeps it; one with another changes it.
        try await harness.registerDevice(app, number: 1, extra: #", "locale": "fr-FR""#)
        try await harness.registerDevice(app, number: 2, extra: #", "apnsEnvironment": "sandbox""#)
        #expect(await environments() == [Harness.token(1, .ios): "sandbox", Harness.token(2, .ios): "sandbox", Harness.token(3, .ios): "app's"])
    }

    /// The app's credentials name production; a device registered in the sandbox goes there with the
    /// same key, a device that said nothing goes to the app's environment. Through the fan-out (to
    /// everyone) and through a one-device send's own write (to listed devices).
    @Test(arguments: [false, true])
    func eachDeviceIsSentToItsEnvironmentWithTheAppsKey(listed: Bool) async throws {
        let sender = ScriptedSender()
        let harness = try await Harness()
        let app = try await harness.createApp()
        let put = await harness.request("PUT", "/v1/apps/\(app.id)/credentials/apns", key: app.serverKey, body: TestCredentials.apns(["environment": "production"]))
        #expect(put.status == 200)
        let first = try await harness.registerDevice(app, number: 1, extra: #", "apnsEnvironment": "sandbox""#)
        let second = try await harness.registerDevice(app, number: 2)
        let worker = DeliveryWorker(
            store: harness.store, senders: SenderSet(ios: sender, android: sender, credentials: .stored),
            vault: CredentialVault(store: harness.store, box: try SecretBox(key: Harness.secretKey)), clock: WallClock { harness.time.now },
            logger: .silent, metrics: Metrics(), signer: harness.signer, options: .init(), handoff: harness.parts.handoff)
        let audience = listed ? #"{"deviceIds": ["\#(first)", "\#(second)"]}"# : #"{"all": true}"#
        _ = try await harness.send(app, #"{"message": {"title": "Hi"}, "audience": \#(audience)}"#)
        try await harness.fanOut.runOnce()
        #expect(try await worker.runOnce() == 2)
        var environments: [String: APNsEnvironment] = [:]
        for push in sender.pushes {
            guard case .apns(let credentials) = push.credentials, case .apns(let request) = push.request,
                  case .token(_, let keyID, _) = credentials.authentication else { Issue.record("expected APNs with the token key"); continue }
            #expect(keyID == "ABC123DEFG")
            environments[request.deviceToken] = credentials.environment
        }
        #expect(environments == [Harness.token(1, .ios): .sandbox, Harness.token(2, .ios): .production])
    }

    /// The console's word for the sandbox is accepted for the app's default too.
    @Test func credentialsTakeDevelopmentAsTheSandbox() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let put = await harness.request("PUT", "/v1/apps/\(app.id)/credentials/apns", key: app.serverKey, body: TestCredentials.apns(["environment": "development"]))
        #expect(put.status == 200, "\(put.text)")
        #expect(put["environment"].string == "sandbox")
        let wrong = await harness.request("PUT", "/v1/apps/\(app.id)/credentials/apns", key: app.serverKey, body: TestCredentials.apns(["environment": "staging"]))
        #expect(wrong.status == 400)
        #expect(wrong["error"]["field"].string == "environment")
    }
}
