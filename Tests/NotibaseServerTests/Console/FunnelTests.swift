import Foundation
import NotibaseCore
import NotibaseSenders
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
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// What the console's messages and devices pages read: a message's funnel with failures by
/// reason, an audience's live count, devices found by token prefix.
@Suite("Funnel, audience count, device search")
struct FunnelTests {
    func receipt(_ id: String, _ delivery: String, event: String, extra: String = "") -> String {
        let signature = Signer(secretKey: Harness.secretKey).receiptSignature(deliveryID: delivery)
        return #"{"id": "\#(id)", "deliveryId": "\#(delivery)", "event": "\#(event)", "occurredAt": "2027-01-15T08:00:00Z", "signature": "\#(signature)"\#(extra)}"#
    }

    @Test func theFunnelCountsEachStepAndGroupsFailuresByReason() async throws {
        // Devices 4 and 5 are refused by the provider: one token is dead, one payload too large.
        let sender = ScriptedSender { push in
            if push.request.deviceToken == Harness.token(4) { return SendOutcome(disposition: .deactivateDevice, status: 410, providerReason: "Unregistered", explanation: "the app was uninstalled") }
            if push.request.deviceToken == Harness.token(5) { return SendOutcome(disposition: .failed, status: 400, providerReason: "BadDeviceToken", explanation: "check the environment") }
            return .sent(providerID: "p-" + push.deliveryID)
        }
        let harness = try await Harness(sender: sender)
        let app = try await harness.createApp()
        for number in 1...5 { try await harness.registerDevice(app, number: number) }
        let message = try await harness.send(app, #"{"audience": {"all": true}, "message": {"title": "Hi", "buttons": [{"id": "track", "text": "Track"}, {"id": "later", "text": "Later"}]}}"#)

        var funnel = await harness.request("GET", "/v1/messages/\(message)/funnel", key: app.serverKey)
        #expect(funnel.status == 200)
        #expect(funnel["audience"].int == 5 && funnel["sent"].int == 0 && funnel["rendered"].int == 0)

        try await harness.deliverDue()
        let deliveries = await harness.request("GET", "/v1/messages/\(message)/deliveries?state=sent", key: app.serverKey)["items"].array.compactMap { $0["id"].string }
        #expect(deliveries.count == 3)
        let withEverything = #", "render": {"categoryId": "nb_0123456789abcdef", "buttons": ["track", "later"], "imageAttached": true, "completion": "complete", "elapsedMilliseconds": 40}"#
        let withoutButtons = #", "render": {"categoryId": "nb_0123456789abcdef", "buttons": [], "imageAttached": false, "completion": "deadline", "elapsedMilliseconds": 25000}"#
        for (index, body) in [
            receipt("a1", deliveries[0], event: "rendered", extra: withEverything),
            receipt("a2", deliveries[0], event: "action", extra: #", "actionId": "track""#),
            receipt("a3", deliveries[0], event: "action", extra: #", "actionId": "track""#),  // a second tap, same delivery
            receipt("b1", deliveries[1], event: "rendered", extra: withoutButtons),
            receipt("b2", deliveries[1], event: "dismissed"),
            receipt("c1", deliveries[2], event: "rendered", extra: withEverything),
            receipt("c2", deliveries[2], event: "opened"),
            receipt("c3", deliveries[2], event: "action", extra: #", "actionId": "later""#),
        ].enumerated() {
            let reply = await harness.request("POST", "/v1/receipts", key: app.clientKey, body: body)
            #expect(reply.status == 202, "receipt \(index): \(reply.text)")
        }

        funnel = await harness.request("GET", "/v1/messages/\(message)/funnel", key: app.serverKey)
        #expect(funnel["state"].string == "completed")
        #expect(funnel["deliveries"].int == 5)
        #expect(funnel["queued"].int == 0)
        #expect(funnel["sent"].int == 3)
        #expect(funnel["failed"].int == 2)
        #expect(funnel["rendered"].int == 3)
        #expect(funnel["renderedWithButtons"].int == 2)
        #expect(funnel["renderedWithImage"].int == 2)
        #expect(funnel["opened"].int == 1)
        #expect(funnel["dismissed"].int == 1)
        #expect(funnel["actions"] == ["track": 1, "later": 1])
        let failures = funnel["failures"].array
        #expect(failures.compactMap { $0["reason"].string }.sorted() == ["BadDeviceToken", "Unregistered"])
        #expect(failures.allSatisfy { $0["count"].int == 1 })
        let unregistered = try #require(failures.first { $0["reason"].string == "Unregistered" })
        #expect(unregistered["explanation"].string == "the app was uninstalled")
        #expect(unregistered["example"].string?.contains("deactivated") == true)
    }

    @Test func aFunnelIsOnlyForItsOwnApp() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let other = try await harness.createApp("Other")
        try await harness.registerDevice(app, number: 1)
        let message = try await harness.send(app, #"{"audience": {"all": true}, "message": {"title": "Hi"}}"#)
        #expect(await harness.request("GET", "/v1/messages/\(message)/funnel", key: other.serverKey).status == 404)
        #expect(await harness.request("GET", "/v1/messages/nope/funnel", key: app.serverKey).status == 404)
        #expect(await harness.request("GET", "/v1/messages/\(message)/funnel", key: app.clientKey).status == 403)
    }

    @Test func theAudienceCountIsWhoASendWouldReachNow() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let a = try await harness.registerDevice(app, number: 1, extra: #", "tags": ["vip", "fr"], "externalUserId": "ann""#)
        try await harness.registerDevice(app, number: 2, extra: #", "tags": ["vip"]"#)
        try await harness.registerDevice(app, number: 3)
        func count(_ audience: String) async -> Reply {
            await harness.request("POST", "/v1/audience/count", key: app.serverKey, body: #"{"audience": \#(audience)}"#)
        }
        #expect(await count(#"{"all": true}"#)["count"].int == 3)
        #expect(await count(#"{"tags": {"allOf": ["vip", "fr"]}}"#)["count"].int == 1)
        #expect(await count(#"{"tags": {"anyOf": ["vip", "fr"]}}"#)["count"].int == 2)
        #expect(await count(#"{"externalUserIds": ["ann", "nobody"]}"#)["count"].int == 1)
        // An externalUserIds audience says how many of its IDs match nobody (each ID once), so
        // the console can warn before a send that some users will not get it.
        let users = await count(#"{"externalUserIds": ["ann", "nobody", "nobody", "gone"]}"#)
        #expect(users["count"].int == 1 && users["unmatchedExternalUserIds"].int == 2, "\(users.text)")
        #expect(await count(#"{"externalUserIds": ["ann"]}"#)["unmatchedExternalUserIds"].int == 0)
        #expect(await count(#"{"all": true}"#)["unmatchedExternalUserIds"].int == nil)
        #expect(await count(#"{"deviceIds": ["\#(a)"]}"#)["count"].int == 1)
        let bad = await count(#"{"tags": {"someOf": ["vip"]}}"#)
        #expect(bad.status == 400)
        #expect(bad.json["error"]["field"].string?.hasPrefix("audience") == true, "\(bad.text)")
        let missing = await harness.request("POST", "/v1/audience/count", key: app.serverKey, body: "{}")
        #expect(missing.status == 400 && missing.json["error"]["field"].string == "audience")
    }

    @Test func devicesAreFoundByTokenPrefix() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let other = try await harness.createApp("Other")
        let wanted = try await harness.registerDevice(app, number: 0xabcdef)
        try await harness.registerDevice(app, number: 1)
        try await harness.registerDevice(other, number: 0xabcdef)
        let prefix = String(Harness.token(0xabcdef).prefix(60))
        let found = await harness.request("GET", "/v1/devices?tokenPrefix=\(prefix)", key: app.serverKey)
        #expect(found["items"].array.compactMap { $0["id"].string } == [wanted])
        // A prefix is literal: SQL wildcards match nothing.
        #expect(await harness.request("GET", "/v1/devices?tokenPrefix=%25%25%25%25", key: app.serverKey)["items"].array.isEmpty)
        let short = await harness.request("GET", "/v1/devices?tokenPrefix=abc", key: app.serverKey)
        #expect(short.status == 400 && short.json["error"]["field"].string == "tokenPrefix")
    }
}
