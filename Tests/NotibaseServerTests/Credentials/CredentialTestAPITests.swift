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

/// Uploaded credentials are tried with the provider (docs/decisions/0046): the upload answers at
/// once with `testing` and the result comes later; `POST …/credentials/{apns|fcm}/test` answers
/// with it. Newest credentials win; nothing becomes a delivery, a device or a webhook event.
@Suite struct CredentialTestAPITests {
    /// The app's `credentials.<provider>.test` once its state is no longer `testing`.
    private func settledTest(_ harness: Harness, _ app: TestApp, _ provider: String = "apns") async throws -> JSONValue {
        var test = JSONValue.null
        for _ in 0..<1_000 {
            test = await harness.request("GET", "/v1/apps/\(app.id)", key: app.serverKey)["credentials"][provider]["test"]
            if test["state"].string != "testing" { return test }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the test did not finish: \(test)")
        return test
    }

    @Test func anUploadAnswersAtOnceWithTestingAndTheCredentialsTurnVerifiedLater() async throws {
        let gate = AsyncGate()
        let provider = TestingProvider(gates: ["ABC123DEFG": gate]) { _ in TestingProvider.nobodysToken }
        let harness = try await Harness(sender: provider, storedCredentials: true)
        let app = try await harness.createApp()

        // The provider has not answered (its gate is shut): the upload does not wait for it.
        let upload = await harness.request("PUT", "/v1/apps/\(app.id)/credentials/apns", key: app.serverKey, body: TestCredentials.apns())
        #expect(upload.status == 200)
        #expect(upload["test"]["state"].string == "testing")
        #expect(upload["test"]["startedAt"].string != nil && upload["test"]["testedAt"] == .null)
        let shown = await harness.request("GET", "/v1/apps/\(app.id)", key: app.serverKey)["credentials"]["apns"]
        #expect(shown["test"]["state"].string == "testing")
        #expect(shown["health"]["state"].string == "untested", "health is from real sends only")

        try await waitUntil { gate.waiters == 1 }
        gate.open()
        let test = try await settledTest(harness, app)
        #expect(test["state"].string == "verified")
        #expect(test["reason"].string == "BadDeviceToken")
        #expect(test["testedAt"].string != nil)
        #expect(test["environments"]["sandbox"]["state"].string == "verified")

        // The push went to the token that is nobody's, in the credentials' environment.
        let push = try #require(provider.pushes.first)
        guard case .apns(let request) = push.request, case .apns(let credentials) = push.credentials else { Issue.record("not an APNs push"); return }
        #expect(request.deviceToken == String(repeating: "0", count: 48) + "6e6f746962617365")
        #expect(credentials.environment == .sandbox && credentials.bundleID == "com.example.shop")
    }

    @Test func theTestGoesToEachEnvironmentTheAppSendsTo() async throws {
        let provider = TestingProvider { push in
            guard case .apns(let credentials) = push.credentials, credentials.environment == .production else { return TestingProvider.nobodysToken }
            return .apnsAnswer(status: 403, reason: "BadEnvironmentKeyInToken")
        }
        let harness = try await Harness(sender: provider, storedCredentials: true)
        let app = try await harness.createApp()
        #expect(await harness.request("PUT", "/v1/apps/\(app.id)/credentials/apns", key: app.serverKey, body: TestCredentials.apns()).status == 200)
        #expect(try await settledTest(harness, app)["state"].string == "verified", "only the credentials' own environment (sandbox) so far")

        // A device of the production build gets a push: the app uses production too.
        _ = try await harness.registerDevice(app, number: 1, extra: #", "apnsEnvironment": "production""#)
        _ = try await harness.send(app, #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#)
        try await harness.deliverDue()
        harness.advance(1)
        #expect(await harness.request("POST", "/v1/apps/\(app.id)/credentials/apns/test", key: app.serverKey).status == 200)
        let test = try await settledTest(harness, app)
        #expect(test["state"].string == "rejected")
        #expect(test["reason"].string == "BadEnvironmentKeyInToken")
        #expect(test["fix"].string?.hasPrefix("In production: ") == true)
        #expect(test["environments"]["sandbox"]["state"].string == "verified")
        #expect(test["environments"]["production"]["state"].string == "rejected")
    }

    @Test func onDemandAnswersWithTheResultItsReasonAndFix() async throws {
        let provider = TestingProvider { _ in .apnsAnswer(status: 403, reason: "InvalidProviderToken") }
        let harness = try await Harness(sender: provider, storedCredentials: true)
        let app = try await harness.createApp()
        #expect(await harness.request("POST", "/v1/apps/\(app.id)/credentials/apns/test", key: app.serverKey).status == 404, "no credentials yet")
        #expect(await harness.request("PUT", "/v1/apps/\(app.id)/credentials/apns", key: app.serverKey, body: TestCredentials.apns()).status == 200)
        _ = try await settledTest(harness, app)

        harness.advance(5)
        let reply = await harness.request("POST", "/v1/apps/\(app.id)/credentials/apns/test", key: app.serverKey)
        #expect(reply.status == 200)
        #expect(reply["state"].string == "rejected")
        #expect(reply["reason"].string == "InvalidProviderToken")
        #expect(reply["fix"].string?.contains("check the key ID, the team ID") == true)
        #expect(reply["testedAt"].string == (Int(Harness.start.timeIntervalSince1970 * 1000) + 5_000).timestamp)
        let shown = await harness.request("GET", "/v1/apps/\(app.id)", key: app.serverKey)["credentials"]["apns"]
        #expect(shown["test"]["state"].string == "rejected")
        #expect(shown["health"]["state"].string == "untested", "a test is not a send: the health stays the sends' word")
        let other = try await harness.createApp("Other")
        #expect(await harness.request("POST", "/v1/apps/\(app.id)/credentials/apns/test", key: other.serverKey).status == 404)
        // The client key ships in the app: whoever holds it cannot make this server call Apple.
        let asked = provider.pushes.count
        #expect(await harness.request("POST", "/v1/apps/\(app.id)/credentials/apns/test", key: app.clientKey).status == 403)
        #expect(provider.pushes.count == asked)
    }

    @Test func fcmIsADryRunToTheTestTopic() async throws {
        let provider = TestingProvider { _ in .sent(providerID: "projects/demo-shop/messages/fake_message_id") }
        let harness = try await Harness(sender: provider, storedCredentials: true)
        let app = try await harness.createApp()
        #expect(await harness.request("PUT", "/v1/apps/\(app.id)/credentials/fcm", key: app.serverKey, body: TestCredentials.serviceAccount()).status == 200)
        _ = try await settledTest(harness, app, "fcm")
        let reply = await harness.request("POST", "/v1/apps/\(app.id)/credentials/fcm/test", key: app.serverKey)
        #expect(reply.status == 200)
        #expect(reply["state"].string == "verified")
        #expect(reply["environments"] == .null)
        for push in provider.pushes {
            guard case .fcm(let request) = push.request else { Issue.record("not an FCM push"); continue }
            let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
            #expect(body["validate_only"] as? Bool == true)
            #expect((body["message"] as? [String: Any])?["topic"] as? String == "notibase-credentials-test")
        }
        #expect(provider.pushes.count == 2)
    }

    @Test func theNewestCredentialsResultWinsOverAnOlderTestThatFinishesLast() async throws {
        let old = AsyncGate()
        let new = AsyncGate()
        let provider = TestingProvider(gates: ["OLDKEY1234": old, "NEWKEY1234": new]) { push in
            guard case .apns(let credentials) = push.credentials, case .token(_, let keyID, _) = credentials.authentication else { return .sent(providerID: nil) }
            return keyID == "OLDKEY1234" ? .apnsAnswer(status: 403, reason: "InvalidProviderToken") : TestingProvider.nobodysToken
        }
        let harness = try await Harness(sender: provider, storedCredentials: true)
        let app = try await harness.createApp()
        #expect(await harness.request("PUT", "/v1/apps/\(app.id)/credentials/apns", key: app.serverKey, body: TestCredentials.apns(["keyId": "OLDKEY1234"])).status == 200)
        try await waitUntil { old.waiters == 1 }
        harness.advance(1)
        let upload = await harness.request("PUT", "/v1/apps/\(app.id)/credentials/apns", key: app.serverKey, body: TestCredentials.apns(["keyId": "NEWKEY1234"]))
        #expect(upload["test"]["state"].string == "testing")
        try await waitUntil { new.waiters == 1 }

        new.open()
        #expect(try await settledTest(harness, app)["state"].string == "verified")
        old.open()  // the old key's refusal arrives last
        try await waitUntil { harness.metrics.render().contains(#"notibase_credentials_test_total{provider="apns",state="rejected"} 1"#) }
        let test = await harness.request("GET", "/v1/apps/\(app.id)", key: app.serverKey)["credentials"]["apns"]["test"]
        #expect(test["state"].string == "verified", "the old credentials' result is not the new ones'")
    }

    @Test func aTestIsNoDeliveryNoDeviceNoWebhookEventAndCountsOnlyAsATest() async throws {
        let provider = TestingProvider { _ in TestingProvider.nobodysToken }
        let transport = RecordingWebhookTransport()
        let harness = try await Harness(sender: provider, storedCredentials: true, webhookTransport: transport)
        let app = try await harness.createApp()
        #expect(await harness.request("POST", "/v1/webhooks", key: app.serverKey, body: #"{"url": "https://hooks.example.com/"}"#).status == 201)
        #expect(await harness.request("PUT", "/v1/apps/\(app.id)/credentials/apns", key: app.serverKey, body: TestCredentials.apns()).status == 200)
        _ = try await settledTest(harness, app)
        #expect(await harness.request("POST", "/v1/apps/\(app.id)/credentials/apns/test", key: app.serverKey)["state"].string == "verified")
        try await harness.deliverDue()
        _ = try await harness.parts.webhooks.runOnce()

        for table in ["devices", "messages", "deliveries", "delivery_events", "webhook_events"] {
            #expect(try await harness.store.rowCount(table) == 0, "\(table)")
        }
        #expect(transport.requests.isEmpty)
        let metrics = harness.metrics.render()
        #expect(metrics.contains(#"notibase_credentials_test_total{provider="apns",state="verified"} 2"#))
        #expect(!metrics.contains("notibase_sends_total{"), "no send counted")
        #expect(metrics.contains("notibase_deliveries_created_total 0"))
        #expect(!metrics.contains(app.id), "no app label")
    }

    @Test func testsAreBoundedPerAppAndTheBoundLifts() async throws {
        let harness = try await Harness(sender: TestingProvider { _ in TestingProvider.nobodysToken }, storedCredentials: true)
        let app = try await harness.createApp()
        #expect(await harness.request("PUT", "/v1/apps/\(app.id)/credentials/apns", key: app.serverKey, body: TestCredentials.apns()).status == 200)
        _ = try await settledTest(harness, app)
        for _ in 1..<CredentialTester.perAppPerMinute {
            #expect(await harness.request("POST", "/v1/apps/\(app.id)/credentials/apns/test", key: app.serverKey).status == 200)
        }
        let refused = await harness.request("POST", "/v1/apps/\(app.id)/credentials/apns/test", key: app.serverKey)
        #expect(refused.status == 429)
        #expect(refused["error"]["code"].string == "rate_limited")
        #expect(refused.headers["retry-after"] == "60")
        // An upload past the bound is stored, untested, and says why.
        let upload = await harness.request("PUT", "/v1/apps/\(app.id)/credentials/apns", key: app.serverKey, body: TestCredentials.apns(["keyId": "XYZ987WVUT"]))
        #expect(upload.status == 200)
        #expect(upload["test"]["state"].string == "untested" && upload["test"]["reason"].string == "too many tests")
        harness.advance(60)
        #expect(await harness.request("POST", "/v1/apps/\(app.id)/credentials/apns/test", key: app.serverKey)["state"].string == "verified")
    }

    @Test func aServerThatSendsWithoutCredentialsTestsNone() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let upload = await harness.request("PUT", "/v1/apps/\(app.id)/credentials/apns", key: app.serverKey, body: TestCredentials.apns())
        #expect(upload["test"]["state"].string == "untested")
        let reply = await harness.request("POST", "/v1/apps/\(app.id)/credentials/apns/test", key: app.serverKey)
        #expect(reply.status == 409)
        #expect(reply["error"]["code"].string == "credentials_not_tested")
    }
}
