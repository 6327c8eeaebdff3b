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

/// An idempotency key answers the request that stored it again, and only that one: the same
/// request (whatever its key order or whitespace) replays, another one with the key is a 422
/// naming the key that stores nothing and costs no quota, also when the two arrive at once. Runs on
/// each backend (script/test).
@Suite("Idempotency keys: replay or refuse")
struct IdempotencyKeyTests {
    static let first = #"{"message": {"title": "Order shipped", "body": "It left"}, "audience": {"all": true}, "ttl": 600}"#

    private static func post(_ harness: Harness, _ app: TestApp, _ body: String, key: String = "k1") async -> Reply {
        await harness.request("POST", "/v1/messages", key: app.serverKey, body: body, headers: ["Idempotency-Key": key])
    }

    @Test func theSameRequestReplaysWhateverItsKeyOrderAndWhitespace() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1)
        let stored = await Self.post(harness, app, Self.first)
        #expect(stored.status == 202 && stored["replayed"].bool == nil, "\(stored.text)")
        let reordered = """
            {
              "ttl": 600,
              "audience": {"all": true},
              "message": {"body": "It\\u0020left", "title": "Order shipped"}
            }
            """
        let replay = await Self.post(harness, app, reordered)
        #expect(replay.status == 202, "\(replay.text)")
        #expect(replay["replayed"].bool == true && replay["id"] == stored["id"])
        // The key in the body is the same key as in the header.
        let inBody = #"{"idempotencyKey": "k1", "message": {"title": "Order shipped", "body": "It left"}, "ttl": 600, "audience": {"all": true}}"#
        let again = await harness.request("POST", "/v1/messages", key: app.serverKey, body: inBody)
        #expect(again["replayed"].bool == true && again["id"] == stored["id"], "\(again.text)")
        #expect(try await harness.store.rowCount("messages") == 1)
    }

    /// Each a request that differs from ``first`` in one thing.
    static let others: [(String, String)] = [
        ("title", #"{"message": {"title": "Order delayed", "body": "It left"}, "audience": {"all": true}, "ttl": 600}"#),
        ("audience", #"{"message": {"title": "Order shipped", "body": "It left"}, "audience": {"externalUserIds": ["u1"]}, "ttl": 600}"#),
        ("option", #"{"message": {"title": "Order shipped", "body": "It left"}, "audience": {"all": true}, "ttl": 601}"#),
        ("schedule", #"{"message": {"title": "Order shipped", "body": "It left"}, "audience": {"all": true}, "ttl": 600, "sendAt": "2027-01-16T10:00:00Z"}"#),
        ("pacing", #"{"message": {"title": "Order shipped", "body": "It left"}, "audience": {"all": true}, "ttl": 600, "ratePerMinute": 60}"#),
        ("variant", #"{"message": {"title": "Order shipped", "body": "It left"}, "variants": {"fr": {"title": "Expédiée"}}, "audience": {"all": true}, "ttl": 600}"#),
    ]

    @Test(arguments: others)
    func anotherRequestWithTheKeyIs422NamingItAndStoresNothing(_ difference: String, _ body: String) async throws {
        let harness = try await Harness(messagesPerMinute: 2)
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1, extra: #", "externalUserId": "u1""#)
        let stored = await Self.post(harness, app, Self.first)
        #expect(stored.status == 202)
        let refused = await Self.post(harness, app, body)
        #expect(refused.status == 422, "\(difference): \(refused.text)")
        #expect(refused.errorCode == "idempotency_key_reused")
        #expect(refused["error"]["field"].string == "Idempotency-Key")
        #expect(refused["error"]["message"].string?.contains(#""k1""#) == true, "\(refused.text)")
        #expect(refused["error"]["message"].string?.contains(stored["id"].string ?? "?") == true, "the message the key stored")
        #expect(try await harness.store.rowCount("messages") == 1)
        // The key still replays what it stored.
        let replay = await Self.post(harness, app, Self.first)
        #expect(replay["replayed"].bool == true && replay["id"] == stored["id"], "\(replay.text)")
        // The refused send's quota token was given back: one more message fits the minute's two.
        #expect(await Self.post(harness, app, body, key: "k2").status == 202)
        #expect(await Self.post(harness, app, body, key: "k3").errorCode == "quota_exceeded")
    }

    @Test func aKeyInTheBodyIsNamedAsTheBodyNamesIt() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        #expect(await Self.post(harness, app, Self.first).status == 202)
        let other = #"{"message": {"title": "Other"}, "audience": {"all": true}, "idempotencyKey": "k1"}"#
        let refused = await harness.request("POST", "/v1/messages", key: app.serverKey, body: other)
        #expect(refused.status == 422 && refused["error"]["field"].string == "idempotencyKey", "\(refused.text)")
    }

    @Test func anotherAppMayUseTheSameKey() async throws {
        let harness = try await Harness()
        let one = try await harness.createApp("One")
        let two = try await harness.createApp("Two")
        #expect(await Self.post(harness, one, Self.first).status == 202)
        let other = await Self.post(harness, two, #"{"message": {"title": "Other"}, "audience": {"all": true}}"#)
        #expect(other.status == 202 && other["replayed"].bool == nil, "\(other.text)")
    }

    /// Sends of one key arriving at once, half of them another request: one message is stored; the
    /// same request as it replays, the other is refused. Both ways a send is stored: a short list
    /// of devices in a group commit, everyone on its own.
    @Test(arguments: [#"{"deviceIds": ["DEVICE"]}"#, #"{"all": true}"#])
    func sendsOfOneKeyAtOnceStoreOneMessage(_ audience: String) async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let device = try await harness.registerDevice(app, number: 1)
        let audience = audience.replacingOccurrences(of: "DEVICE", with: device)
        let bodies = (0..<8).map { #"{"message": {"title": "Title \#($0 % 2)"}, "audience": \#(audience)}"# }
        let replies = await withTaskGroup(of: (Int, Reply).self) { group in
            for (index, body) in bodies.enumerated() {
                group.addTask { (index, await Self.post(harness, app, body, key: "race")) }
            }
            return await group.reduce(into: [Int: Reply]()) { $0[$1.0] = $1.1 }
        }
        #expect(try await harness.store.rowCount("messages") == 1)
        let created = replies.filter { $0.value.status == 202 && $0.value["replayed"].bool == nil }
        #expect(created.count == 1, "\(replies.values.map(\.text))")
        let winner = try #require(created.first)
        for (index, reply) in replies where index != winner.key {
            if index % 2 == winner.key % 2 {
                #expect(reply.status == 202 && reply["replayed"].bool == true && reply["id"] == winner.value["id"], "\(reply.text)")
            } else {
                #expect(reply.status == 422 && reply.errorCode == "idempotency_key_reused", "\(reply.text)")
            }
        }
    }
}
