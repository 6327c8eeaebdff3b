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

/// A send says when its message will not reach its audience: a platform without credentials, or
/// with credentials the provider refuses, and an audience that matches nobody (with the IDs or
/// tags that matched nothing). The message's page and funnel count the deliveries waiting for
/// credentials, with the reason.
@Suite struct SendWarningsTests {
    func post(_ harness: Harness, _ app: TestApp, _ body: String) async throws -> Reply {
        let reply = await harness.request("POST", "/v1/messages", key: app.serverKey, body: body)
        #expect(reply.status == 202, "\(reply.text)")
        return reply
    }

    func codes(_ reply: Reply) -> [String] {
        reply["warnings"].array.map { "\($0["code"].string ?? "")/\($0["platform"].string ?? "-")" }.sorted()
    }

    @Test func aPlatformWithoutCredentialsIsWarnedOfOnlyWhenTheAudienceHasIt() async throws {
        let harness = try await Harness(storedCredentials: true)
        let app = try await harness.createApp()
        let iphone = try await harness.registerDevice(app, number: 1)
        let android = try await harness.registerDevice(app, number: 2, platform: .android)
        let everyone = #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#
        #expect(codes(try await post(harness, app, everyone)) == ["credentials_missing/android", "credentials_missing/ios"])
        let missing = try await post(harness, app, everyone)["warnings"].array.first { $0["platform"].string == "ios" }
        #expect(missing?["message"].string?.contains("PUT /v1/apps/\(app.id)/credentials/apns") == true)

        #expect(await harness.request("PUT", "/v1/apps/\(app.id)/credentials/apns", key: app.serverKey, body: TestCredentials.apns()).status == 200)
        #expect(codes(try await post(harness, app, everyone)) == ["credentials_missing/android"])
        // A message to the iPhone alone (the one-device path) is not warned about Android.
        #expect(codes(try await post(harness, app, #"{"message": {"title": "Hi"}, "audience": {"deviceIds": ["\#(iphone)"]}}"#)).isEmpty)
        #expect(codes(try await post(harness, app, #"{"message": {"title": "Hi"}, "audience": {"deviceIds": ["\#(android)"]}}"#)) == ["credentials_missing/android"])
        // Scheduled, and by tag: the audience is looked up for the platform.
        #expect(codes(try await post(harness, app, #"{"message": {"title": "Hi"}, "audience": {"all": true}, "sendAt": "\#((Int(Harness.start.timeIntervalSince1970 * 1000) + 3_600_000).timestamp)"}"#))
            == ["credentials_missing/android"])
        #expect(await harness.request("PUT", "/v1/apps/\(app.id)/credentials/fcm", key: app.serverKey, body: TestCredentials.serviceAccount()).status == 200)
        #expect(codes(try await post(harness, app, everyone)).isEmpty)
    }

    @Test func withoutStoredCredentialsNothingIsWarnedOf() async throws {
        let harness = try await Harness()  // the accepting kind of sender: no credentials needed
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1)
        let reply = try await post(harness, app, #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#)
        #expect(reply["warnings"].array.isEmpty)
    }

    @Test func failingCredentialsAreWarnedOfAndTheirDeliveriesCountedAsWaiting() async throws {
        let sender = ScriptedSender { _ in
            SendOutcome(disposition: .credentialsRejected, status: 403, providerReason: "InvalidProviderToken", explanation: "APNs could not verify the provider token.")
        }
        let harness = try await Harness(sender: sender, storedCredentials: true)
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1)
        _ = await harness.request("PUT", "/v1/apps/\(app.id)/credentials/apns", key: app.serverKey, body: TestCredentials.apns())
        let first = try await post(harness, app, #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#)
        #expect(codes(first).isEmpty, "untested credentials are not warned of")
        let id = try #require(first["id"].string)
        try await harness.deliverDue()

        let next = try await post(harness, app, #"{"message": {"title": "Again"}, "audience": {"all": true}}"#)
        #expect(codes(next) == ["credentials_failing/ios"])
        #expect(next["warnings"][0]["message"].string?.contains("InvalidProviderToken") == true)

        let shown = await harness.request("GET", "/v1/messages/\(id)", key: app.serverKey)
        #expect(codes(shown) == ["credentials_failing/ios"])
        let waiting = shown["counts"]["waitingForCredentials"]
        #expect(waiting.array.count == 1)
        #expect(waiting[0]["platform"].string == "ios" && waiting[0]["count"].int == 1 && waiting[0]["reason"].string == "InvalidProviderToken")
        let funnel = await harness.request("GET", "/v1/messages/\(id)/funnel", key: app.serverKey)
        #expect(funnel["waitingForCredentials"][0]["count"].int == 1)
        #expect(funnel["waitingForCredentials"][0]["reason"].string == "InvalidProviderToken")
        #expect(funnel["failed"].int == 0)
    }

    @Test func anAudienceThatMatchesNobodyIsWarnedOfWithWhatMatchedNothing() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1, extra: #", "tags": ["vip", "fr"], "externalUserId": "alice""#)
        func empty(_ audience: String) async throws -> JSONValue? {
            let reply = try await post(harness, app, #"{"message": {"title": "Hi"}, "audience": \#(audience)}"#)
            #expect(reply["audienceSize"].int == 0)
            return reply["warnings"].array.first { $0["code"].string == "audience_empty" }
        }
        #expect(try await empty(#"{"deviceIds": ["nope-1", "nope-2", "nope-1"]}"#)?["unmatched"].array.compactMap(\.string) == ["nope-1", "nope-2"])
        #expect(try await empty(#"{"externalUserIds": ["bob"]}"#)?["unmatched"].array.compactMap(\.string) == ["bob"])
        #expect(try await empty(#"{"tags": {"anyOf": ["de", "es"]}}"#)?["unmatched"].array.compactMap(\.string) == ["de", "es"])
        #expect(try await empty(#"{"tags": {"allOf": ["vip", "de"]}}"#)?["unmatched"].array.compactMap(\.string) == ["de"])
        let neither = try await empty(#"{"tags": {"allOf": ["vip", "fr", "de", "es"]}}"#)
        #expect(neither?["unmatched"].array.compactMap(\.string) == ["de", "es"])
        // Each tag on some device, none with both: said so.
        try await harness.registerDevice(app, number: 2, extra: #", "tags": ["de"]"#)
        let apart = try await empty(#"{"tags": {"allOf": ["fr", "de"]}}"#)
        #expect(apart?["message"].string?.contains("none has all of them") == true)
        #expect(apart?["unmatched"] == .null)

        let reached = try await post(harness, app, #"{"message": {"title": "Hi"}, "audience": {"externalUserIds": ["alice", "bob"]}}"#)
        #expect(reached["warnings"].array.isEmpty, "a message that reaches someone has no audience warning")

        let other = try await harness.createApp("Empty")
        let nobody = try await post(harness, other, #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#)
        #expect(nobody["warnings"][0]["code"].string == "audience_empty")
        #expect(nobody["warnings"][0]["message"].string?.contains("no active device") == true)
        let shown = await harness.request("GET", "/v1/messages/\(nobody["id"].string ?? "")", key: other.serverKey)
        #expect(shown["warnings"][0]["code"].string == "audience_empty", "the message's page says so too")
    }
}
