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
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

@Suite("Webhooks API")
struct WebhooksAPITests {
    static let url = "https://hooks.example.com/notibase"

    @Test func theSecretIsShownOnceAndSignsTheTestEvent() async throws {
        let fixture = try await WebhookFixture()
        let harness = fixture.harness
        let app = try await harness.createApp()
        let created = await harness.request("POST", "/v1/webhooks", key: app.serverKey, body: #"{"url": "\#(Self.url)", "description": "warehouse"}"#)
        #expect(created.status == 201)
        let id = try #require(created["id"].string)
        let secret = try #require(created["secret"].string)
        #expect(secret.hasPrefix("whsec_") && created["types"].array.count == WebhookEventType.all.count && created["enabled"].bool == true)
        let shown = await harness.request("GET", "/v1/webhooks/\(id)", key: app.serverKey)
        #expect(shown.status == 200 && shown["secret"] == .null && !shown.text.contains(secret))
        let listed = await harness.request("GET", "/v1/webhooks", key: app.serverKey)
        #expect(listed["items"].array.map { $0["id"].string } == [id] && !listed.text.contains(secret))
        // Sealed at rest: the stored row does not hold the secret's text.
        let stored = try #require(try await harness.store.webhookEndpoint(appID: app.id, id: id))
        #expect(!String(decoding: stored.sealedSecret, as: UTF8.self).contains(String(secret.dropFirst(6))))

        #expect(await harness.request("POST", "/v1/webhooks/\(id)/test", key: app.serverKey).status == 202)
        try await fixture.runOnce(try fixture.dispatcher())
        let batch = try #require(try fixture.batches(to: Self.url).first)
        #expect(batch.types == ["webhook.test"])
        #expect(try batch.verifies(with: secret))
        let attempts = await harness.request("GET", "/v1/webhooks/\(id)/attempts", key: app.serverKey)["items"].array
        #expect(attempts.count == 1 && attempts[0]["status"].int == 200 && attempts[0]["webhookId"].string == batch.id)
    }

    @Test func aURLTheTransportRefusesIsA400NamingURLAndWhy() async throws {
        let harness = try await WebhookFixture().harness
        let app = try await harness.createApp()
        let insecure = await harness.request("POST", "/v1/webhooks", key: app.serverKey, body: #"{"url": "http://hooks.example.com/"}"#)
        #expect(insecure.status == 400 && insecure["error"]["field"].string == "url")
        #expect(insecure["error"]["message"].string?.contains("not_https") == true)
        let missing = await harness.request("POST", "/v1/webhooks", key: app.serverKey, body: #"{"types": ["delivery.sent"]}"#)
        #expect(missing.status == 400 && missing["error"]["field"].string == "url")
        let unknownType = await harness.request("POST", "/v1/webhooks", key: app.serverKey, body: #"{"url": "\#(Self.url)", "types": ["delivery.sentt"]}"#)
        #expect(unknownType.status == 400 && unknownType["error"]["field"].string == "types")
        let none = await harness.request("POST", "/v1/webhooks", key: app.serverKey, body: #"{"url": "\#(Self.url)", "types": []}"#)
        #expect(none.status == 400 && none["error"]["field"].string == "types")
        #expect(try await harness.store.webhookEndpoints(appID: app.id, page: .after(0, limit: 1_000)).isEmpty)
        // The client key, shipped in the app, cannot register one.
        #expect(await harness.request("POST", "/v1/webhooks", key: app.clientKey, body: #"{"url": "\#(Self.url)"}"#).status == 403)
    }

    @Test func anotherAppsKeyCannotReadReplayTestOrChangeAnEndpoint() async throws {
        let harness = try await WebhookFixture().harness
        let owner = try await harness.createApp("owner")
        let stranger = try await harness.createApp("stranger")
        let created = await harness.request("POST", "/v1/webhooks", key: owner.serverKey, body: #"{"url": "\#(Self.url)"}"#)
        let id = try #require(created["id"].string)
        let routes: [(String, String, String?)] = [
            ("GET", "/v1/webhooks/\(id)", nil),
            ("PATCH", "/v1/webhooks/\(id)", #"{"url": "https://attacker.example.com/"}"#),
            ("DELETE", "/v1/webhooks/\(id)", nil),
            ("POST", "/v1/webhooks/\(id)/rotate-secret", nil),
            ("POST", "/v1/webhooks/\(id)/test", nil),
            ("GET", "/v1/webhooks/\(id)/attempts", nil),
            ("POST", "/v1/webhooks/\(id)/replay", #"{"since": "2020-01-01T00:00:00Z"}"#),
        ]
        for (method, path, body) in routes {
            let reply = await harness.request(method, path, key: stranger.serverKey, body: body)
            #expect(reply.status == 404 && reply.errorCode == "not_found", "\(method) \(path)")
            #expect(!reply.text.contains("whsec_"))
        }
        #expect(await harness.request("GET", "/v1/webhooks", key: stranger.serverKey)["items"].array.isEmpty)
        let kept = try #require(try await harness.store.webhookEndpoint(appID: owner.id, id: id))
        #expect(kept.url == Self.url && kept.sealedPreviousSecret == nil && kept.dispatch.enabled)
        #expect(try await harness.store.rowCount("webhook_outbox") == 0)
    }

    /// The event types are one list: the API answers each with a description, `types` takes exactly
    /// them (an unknown one is refused naming the field and listing them), and the OpenAPI
    /// document's enum is the same list.
    @Test func theEventTypesAreListedWithWhatEachMeansAndAreWhatTypesTakes() async throws {
        let harness = try await WebhookFixture().harness
        let app = try await harness.createApp()
        let listed = await harness.request("GET", "/v1/webhooks/event-types", key: app.serverKey)
        #expect(listed.status == 200, "\(listed.text)")
        let types = listed["items"].array.compactMap { $0["type"].string }
        #expect(types == WebhookEventType.all && types.count == Set(types).count && types.count >= 14)
        #expect(listed["items"].array.allSatisfy { ($0["description"].string?.count ?? 0) >= 20 }, "\(listed.text)")
        #expect(await harness.request("GET", "/v1/webhooks/event-types", key: app.clientKey).status == 403)
        #expect(await harness.request("GET", "/v1/webhooks/event-types", key: nil).status == 401)

        let every = types.map { "\"\($0)\"" }.joined(separator: ", ")
        let created = await harness.request("POST", "/v1/webhooks", key: app.serverKey, body: #"{"url": "\#(Self.url)", "types": [\#(every)]}"#)
        #expect(created.status == 201 && created["types"].array.compactMap(\.string) == types, "\(created.text)")
        let unknown = await harness.request("POST", "/v1/webhooks", key: app.serverKey, body: #"{"url": "\#(Self.url)", "types": ["delivery.sentt"]}"#)
        let message = unknown["error"]["message"].string ?? ""
        #expect(unknown.status == 400 && unknown["error"]["field"].string == "types" && types.allSatisfy(message.contains), "\(unknown.text)")
        let id = try #require(created["id"].string)
        let patched = await harness.request("PATCH", "/v1/webhooks/\(id)", key: app.serverKey, body: #"{"types": ["device.updated"]}"#)
        #expect(patched.status == 400 && patched["error"]["field"].string == "types" && types.allSatisfy((patched["error"]["message"].string ?? "").contains))

        let document = try JSONDecoder().decode(JSONValue.self, from: Data(OpenAPIDocument.bytes))
        #expect(document["components"]["schemas"]["WebhookEventType"]["enum"].array.compactMap(\.string) == types)
    }

    @Test func patchChangesTypesAndEnabledAndDeleteRemoves() async throws {
        let harness = try await WebhookFixture().harness
        let app = try await harness.createApp()
        let id = try #require(await harness.request("POST", "/v1/webhooks", key: app.serverKey, body: #"{"url": "\#(Self.url)"}"#)["id"].string)
        let patched = await harness.request("PATCH", "/v1/webhooks/\(id)", key: app.serverKey, body: #"{"types": ["delivery.sent"], "enabled": false}"#)
        #expect(patched.status == 200 && patched["types"].array.map(\.string) == ["delivery.sent"] && patched["enabled"].bool == false)
        let all = await harness.request("PATCH", "/v1/webhooks/\(id)", key: app.serverKey, body: #"{"types": null, "enabled": true}"#)
        #expect(all["types"].array.count == WebhookEventType.all.count && all["enabled"].bool == true)
        #expect(await harness.request("PATCH", "/v1/webhooks/\(id)", key: app.serverKey, body: #"{"url": "ftp://x"}"#)["error"]["field"].string == "url")
        #expect(await harness.request("DELETE", "/v1/webhooks/\(id)", key: app.serverKey).status == 204)
        #expect(await harness.request("GET", "/v1/webhooks/\(id)", key: app.serverKey).status == 404)
    }
}

/// An app's endpoints are bounded and their list pages (issue 43): 40,000 endpoints of one app
/// made its list a 40 MB answer.
extension WebhooksAPITests {
    @Test func anAppHasAtMostItsLimitOfEndpointsEvenWhenTheyArriveAtOnce() async throws {
        let harness = try await WebhookFixture().harness
        let app = try await harness.createApp()
        let other = try await harness.createApp("other")
        let limit = ServerConfiguration.Limits().webhookEndpointsPerApp
        let statuses = await withTaskGroup(of: Int.self) { group in
            for number in 1...(limit + 10) {
                group.addTask { await harness.request("POST", "/v1/webhooks", key: app.serverKey, body: #"{"url": "https://h\#(number).example.com/"}"#).status }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 201 }.count == limit && statuses.filter { $0 == 409 }.count == 10)
        let refused = await harness.request("POST", "/v1/webhooks", key: app.serverKey, body: #"{"url": "https://one-more.example.com/"}"#)
        #expect(refused.status == 409 && refused["error"]["code"].string == "endpoint_limit_reached")
        #expect(refused["error"]["message"].string?.contains("\(limit)") == true)
        #expect(try await harness.store.webhookEndpoints(appID: app.id, page: .after(0, limit: 1_000)).count == limit)
        // Another app's are its own.
        #expect(await harness.request("POST", "/v1/webhooks", key: other.serverKey, body: #"{"url": "https://h1.example.com/"}"#).status == 201)
        // One deleted makes room for one.
        let first = try #require(await harness.request("GET", "/v1/webhooks?limit=1", key: app.serverKey)["items"].array.first?["id"].string)
        #expect(await harness.request("DELETE", "/v1/webhooks/\(first)", key: app.serverKey).status == 204)
        #expect(await harness.request("POST", "/v1/webhooks", key: app.serverKey, body: #"{"url": "https://one-more.example.com/"}"#).status == 201)
    }

    @Test func theListPagesInEitherOrder() async throws {
        let harness = try await WebhookFixture().harness
        let app = try await harness.createApp()
        var made: [String] = []
        for number in 1...7 {
            made.append(try #require(await harness.request("POST", "/v1/webhooks", key: app.serverKey, body: #"{"url": "https://h\#(number).example.com/"}"#)["id"].string))
        }
        for order in ["oldest", "newest"] {
            var seen: [String] = []
            var cursor = ""
            while true {
                let page = await harness.request("GET", "/v1/webhooks?limit=3&order=\(order)&cursor=\(cursor)", key: app.serverKey)
                #expect(page.status == 200)
                seen += page["items"].array.compactMap { $0["id"].string }
                guard let next = page["nextCursor"].string else { break }
                cursor = next
            }
            #expect(seen == (order == "oldest" ? made : made.reversed()))
        }
        let bad = await harness.request("GET", "/v1/webhooks?limit=0", key: app.serverKey)
        #expect(bad.status == 400 && bad["error"]["field"].string == "limit")
    }
}
