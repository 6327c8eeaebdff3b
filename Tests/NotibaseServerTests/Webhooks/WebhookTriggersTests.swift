import Foundation
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

/// PostgreSQL's webhook triggers run a function for every message and every registration (and,
/// until migration 12, every delivery sent): with them always there, a 300,000-device send on a
/// database without a single endpoint took 39 s instead of 23 (docs/benchmarks/2026-12-07-lab-notes.md).
/// They exist only while an endpoint does. None is on `deliveries`: the workers' record statement writes the
/// sends' events, and a trigger there made every claim and record keep copies of its rows.
@Suite("Webhook triggers only with an endpoint", .enabled(if: TestDatabase.isPostgres))
struct WebhookTriggersTests {
    @Test func theTriggersComeWithTheFirstEndpointAndGoWithTheLast() async throws {
        let opened = try await TestDatabase.open(directory: NSTemporaryDirectory(), busyTimeout: 5_000)
        defer { opened.finish() }
        let store = opened.store
        let connection = try PostgresConnection(url: try #require(opened.url))
        func triggers() throws -> Int {
            try connection.query(
                "SELECT count(*) FROM pg_trigger WHERE tgname LIKE 'webhook_%' AND tgrelid IN ('messages'::regclass, 'devices'::regclass, 'deliveries'::regclass)"
            ).first { $0.int(0) } ?? -1
        }
        func onDeliveries() throws -> Int {
            try connection.query("SELECT count(*) FROM pg_trigger WHERE NOT tgisinternal AND tgrelid = 'deliveries'::regclass").first { $0.int(0) } ?? -1
        }
        #expect(try triggers() == 0, "a database without endpoints pays for no trigger")
        for app in ["a", "b"] {
            _ = try await store.createApp(id: app, name: app, serverKeyHash: [UInt8(app.utf8.first!)], clientKeyHash: [UInt8(app.utf8.first!) + 1],
                                          requireIdentityVerification: false, now: 1)
        }
        for (app, id) in [("a", "e1"), ("a", "e2"), ("b", "e3")] {
            _ = try await store.createWebhookEndpoint(
                NewWebhookEndpoint(id: id, appID: app, url: "https://x.example/\(id)", types: nil, sealedSecret: [1], now: 5, limit: 100))
            #expect(try triggers() == 4)
            #expect(try onDeliveries() == 0, "no trigger on deliveries: the record writes the sends' events")
        }
        #expect(try await store.deleteWebhookEndpoint(appID: "a", id: "e1"))
        #expect(try triggers() == 4, "another endpoint is left")
        #expect(try await store.deleteApp("b"))
        #expect(try triggers() == 4)
        #expect(try await store.deleteWebhookEndpoint(appID: "a", id: "e2"))
        #expect(try triggers() == 0)
        _ = try await store.createWebhookEndpoint(NewWebhookEndpoint(id: "e4", appID: "a", url: "https://x.example/e4", types: nil, sealedSecret: [1], now: 6, limit: 100))
        #expect(try triggers() == 4)
        #expect(try await store.deleteApp("a"))
        #expect(try triggers() == 0, "the last endpoint went with its app")
    }
}
