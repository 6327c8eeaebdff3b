import Foundation
import Testing
@testable import NotibaseServer
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// Rows of several webhook events came after the webhooks (SQLite schema 10, PostgreSQL 11): a
/// database at the schema before moves on keeping its stream and what its outbox holds, and its
/// sends are no longer written by a row trigger (docs/decisions/0037, "Sends in batches"), nor,
/// from PostgreSQL's migration 12, by any trigger ("Sends in the record, on PostgreSQL").
@Suite("Webhook batches migration")
struct WebhookBatchesMigrationTests {
    static let eventID = "01900000-0000-7000-8000-000000000001"

    @Test func sqliteMovesOnFromOneEventARow() async throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/notibase.sqlite"
        let old = try TestDatabase.sqlite(path, atVersion: 9)
        try old.execute(
            """
            INSERT INTO apps (id, name, server_key_hash, client_key_hash, created_at) VALUES ('a', 'A', x'01', x'02', 0);
            INSERT INTO webhook_endpoints (id, app_id, url, secret, created_at, updated_at) VALUES ('e1', 'a', 'https://x.example', x'01', 0, 0);
            INSERT INTO webhook_events (id, app_id, type, at, data) VALUES ('\(Self.eventID)', 'a', 'device.registered', 1, '{"appId":"a","deviceId":"d1"}');
            INSERT INTO devices (id, app_id, platform, token, created_at, updated_at) VALUES ('d2', 'a', 'ios', 't2', 2, 2);
            """)
        #expect(try old.first("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'webhook_delivery_sent'") { $0.int(0) } == 1)
        let store = try SQLiteStore(path: path)
        let connection = try SQLiteConnection(path: path)
        #expect(try connection.first("PRAGMA user_version") { $0.int(0) } == Schema.migrations.count)
        #expect(try connection.first("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'webhook_delivery_sent'") { $0.int(0) } == 0)
        while try await store.feedWebhookEvents(limit: 100) > 0 {}
        let events = try await store.webhookEvents(appID: "a", endpointID: "e1", after: 0, through: nil, limit: 10)
        #expect(events.map(\.seq) == [1, 2])
        #expect(events.first?.id == Self.eventID)
        #expect(events.map(\.at) == [1, 2])
    }

    @Test(.enabled(if: TestDatabase.isPostgres))
    func postgresMovesOnFromOneEventARow() async throws {
        let (url, drop) = try TestDatabase.emptySchema(try #require(TestDatabase.postgresURL))
        defer { drop() }
        let old = try TestDatabase.postgres(url, atVersion: 10)
        try old.execute(
            """
            INSERT INTO apps (id, name, server_key_hash, client_key_hash, created_at) VALUES ('a', 'A', '\\x01', '\\x02', 0);
            INSERT INTO webhook_endpoints (id, app_id, url, secret, created_at, updated_at) VALUES ('e1', 'a', 'https://x.example', '\\x01', 0, 0);
            SELECT notibase_webhook_triggers();
            UPDATE webhook_feed SET event_tx = pg_current_xact_id(), event_seq = 0;
            INSERT INTO webhook_events (id, app_id, type, at, data) VALUES ('\(Self.eventID)', 'a', 'device.registered', 1, '{"appId":"a","deviceId":"d1"}');
            INSERT INTO devices (id, app_id, platform, token, created_at, updated_at) VALUES ('d2', 'a', 'ios', 't2', 2, 2);
            """)
        /// The sends' triggers, each `row` or `statement`.
        func sentTriggers(_ connection: PostgresConnection) throws -> [String] {
            try connection.query(
                "SELECT CASE WHEN tgtype & 1 = 1 THEN 'row' ELSE 'statement' END FROM pg_trigger WHERE tgname = 'webhook_delivery_sent' AND tgrelid = 'deliveries'::regclass"
            ).map { $0.text(0) }
        }
        #expect(try sentTriggers(old) == ["row"])
        let now = 1_799_625_600_000  // 2027-01-11 00:00 UTC
        let store = try await PostgresStore(url: url, poolSize: 1, now: now)
        let connection = try PostgresConnection(url: url)
        #expect(try connection.query("SELECT max(version) FROM notibase_schema").first { $0.int(0) } == PostgresSchema.migrations.count)
        #expect(try sentTriggers(connection) == [], "no sends' trigger: the record statement writes their events (migration 12)")
        #expect(try connection.query("SELECT count(*) FROM pg_trigger WHERE tgname = 'webhook_message_created' AND tgrelid = 'messages'::regclass").first { $0.int(0) } == 1,
                "the other triggers stay while an endpoint does")
        while try await store.feedWebhookEvents(limit: 100) > 0 {}
        let events = try await store.webhookEvents(appID: "a", endpointID: "e1", after: 0, through: nil, limit: 10)
        #expect(events.map(\.seq) == [1, 2])
        #expect(events.first?.id == Self.eventID)
        #expect(events.map(\.at) == [1, 2])
        // The triggers made before the migration still go with the last endpoint.
        try connection.execute("DELETE FROM webhook_endpoints; SELECT notibase_webhook_triggers();")
        #expect(try connection.query("SELECT count(*) FROM pg_trigger WHERE tgname LIKE 'webhook_%' AND tgrelid IN ('messages'::regclass, 'devices'::regclass)").first { $0.int(0) } == 0)
    }
}
