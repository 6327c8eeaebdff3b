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

/// Each app's credentials carry their health, from what the providers answered: `untested` after
/// an upload, `failing` once the provider refuses them (with why), `ok` again once it accepts a
/// push. A warning is logged when they start failing and when they recover.
@Suite struct CredentialHealthTests {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    /// A sender refusing the credentials while `refusing` is set, accepting otherwise.
    final class Provider: Sendable {
        let refusing = Mutex(true)
        var sender: ScriptedSender {
            ScriptedSender { [self] push in
                refusing.withLock { $0 }
                    ? SendOutcome(disposition: .credentialsRejected, status: 403, providerReason: "InvalidProviderToken",
                                  explanation: "APNs could not verify the provider token: check the key ID, the team ID and that the .p8 key is not revoked.")
                    : .sent(providerID: "p-" + push.deliveryID)
            }
        }
    }

    @Test func healthTurnsFailingWithItsReasonThenOKAndAWarningSaysEach() async throws {
        let lines = Lines()
        let provider = Provider()
        let harness = try await Harness(
            sender: provider.sender, logger: Logger(minimumLevel: .warning) { line in lines.lines.withLock { $0.append(line) } }, storedCredentials: true)
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1)
        #expect(await harness.request("PUT", "/v1/apps/\(app.id)/credentials/apns", key: app.serverKey, body: TestCredentials.apns()).status == 200)

        _ = try await harness.send(app, #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#)
        try await harness.deliverDue()
        var health = await harness.request("GET", "/v1/apps/\(app.id)", key: app.serverKey)["credentials"]["apns"]["health"]
        #expect(health["state"].string == "failing")
        #expect(health["lastFailureReason"].string?.contains("InvalidProviderToken") == true)
        #expect(health["lastFailureAt"].string == Int(Harness.start.timeIntervalSince1970 * 1000).timestamp)
        #expect(health["lastSuccessAt"] == .null)
        let listed = await harness.request("GET", "/v1/apps", key: Harness.adminKey)["items"].array.first { $0["id"].string == app.id }
        #expect(listed?["credentials"]["apns"]["health"]["state"].string == "failing", "the app list shows it too")
        #expect(lines.all.filter { $0.contains("credentials failing") }.count == 1)
        #expect(lines.all.contains { $0.contains(#""level":"warning""#) && $0.contains("credentials failing") && $0.contains("InvalidProviderToken") })

        // Failing again says nothing new.
        harness.advance(1)
        _ = try await harness.send(app, #"{"message": {"title": "Again"}, "audience": {"all": true}}"#)
        try await harness.deliverDue()
        #expect(lines.all.filter { $0.contains("credentials failing") }.count == 1)

        provider.refusing.withLock { $0 = false }
        harness.advance(1)
        _ = try await harness.send(app, #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#)
        try await harness.deliverDue()
        health = await harness.request("GET", "/v1/apps/\(app.id)", key: app.serverKey)["credentials"]["apns"]["health"]
        #expect(health["state"].string == "ok")
        #expect(health["lastSuccessAt"].string == (Int(Harness.start.timeIntervalSince1970 * 1000) + 2_000).timestamp)
        #expect(health["lastFailureReason"].string?.contains("InvalidProviderToken") == true, "the last failure is kept")
        #expect(lines.all.contains { $0.contains(#""level":"warning""#) && $0.contains("credentials recovered") })
        let keyLine = String(TestCredentials.p256Key.split(separator: "\n")[1])
        for line in lines.all { #expect(!line.contains(keyLine) && !line.contains(app.serverKey), "\(line) holds a secret") }

        // New credentials are untested again, whatever the old ones did.
        #expect(await harness.request("PUT", "/v1/apps/\(app.id)/credentials/apns", key: app.serverKey, body: TestCredentials.apns(["keyId": "XYZ987WVUT"])).status == 200)
        health = await harness.request("GET", "/v1/apps/\(app.id)", key: app.serverKey)["credentials"]["apns"]["health"]
        #expect(health["state"].string == "untested" && health["lastSuccessAt"] == .null && health["lastFailureAt"] == .null)
    }

    /// Not a write per delivery: an unchanged state's times are stored at most every
    /// ``CredentialMonitor/writeInterval``.
    @Test func anUnchangedStateIsStoredAtMostEveryFewSeconds() async throws {
        let provider = Provider()
        provider.refusing.withLock { $0 = false }
        let harness = try await Harness(sender: provider.sender, storedCredentials: true)
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1)
        _ = await harness.request("PUT", "/v1/apps/\(app.id)/credentials/apns", key: app.serverKey, body: TestCredentials.apns())
        func lastSuccess() async throws -> Int? {
            try await harness.store.credentials(appID: app.id).first?.health.lastSuccessAt
        }
        _ = try await harness.send(app, #"{"message": {"title": "1"}, "audience": {"all": true}}"#)
        try await harness.deliverDue()
        let first = try #require(try await lastSuccess())
        #expect(first == Int(Harness.start.timeIntervalSince1970 * 1000))
        harness.advance(2)
        _ = try await harness.send(app, #"{"message": {"title": "2"}, "audience": {"all": true}}"#)
        try await harness.deliverDue()
        #expect(try await lastSuccess() == first, "2 s later: not written again")
        harness.advance(4)
        _ = try await harness.send(app, #"{"message": {"title": "3"}, "audience": {"all": true}}"#)
        try await harness.deliverDue()
        #expect(try await lastSuccess() == first + 6_000, "6 s after the last write: written")
    }
}
