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
import NotibaseTestSupport

/// A database 0.1.0 wrote (SQLite schema 6, PostgreSQL 7: its migrations as they are in the code)
/// moves on to the schema of now in one migration (SQLite 7, PostgreSQL 8), keeping its rows and
/// gaining what came since: each credential's health and test result, each device's APNs
/// environment (none: sent to its app's), an idempotency key's digest (none: it replays as it
/// did), the delivery logs' indexes, and webhooks, whose feed starts at the end of the history it
/// already holds. A new database gets the same schema as one that moved on.
@Suite("Migration from 0.1.0")
struct ReleaseMigrationTests {
    /// The schemas 0.1.0 shipped.
    static let sqliteRelease = 6
    static let postgresRelease = 7
    /// A time for PostgreSQL's weeks: 2027-01-11 00:00 UTC.
    static let now = 1_799_625_600_000

    /// 0.1.0's rows: an app with APNs credentials, a device with a user, a completed message with
    /// an idempotency key, its delivery sent and rendered, with its history and receipt.
    /// `bytes` writes a blob literal, `history` the columns PostgreSQL's history adds.
    static func rows(bytes: (String) -> String, at t: Int, history: (columns: String, value: String)) -> String {
        """
        INSERT INTO apps (id, name, server_key_hash, client_key_hash, created_at, stored_bytes) VALUES ('a', 'A', \(bytes("01")), \(bytes("02")), \(t), 42);
        INSERT INTO credentials (app_id, provider, sealed, summary, updated_at) VALUES ('a', 'apns', \(bytes("0303")), 'key K1', \(t));
        INSERT INTO devices (id, app_id, platform, token, external_user_id, created_at, updated_at) VALUES ('dev', 'a', 'ios', 't1', 'user-1', \(t), \(t));
        INSERT INTO messages (id, app_id, content, audience, state, send_at, audience_size, created_at, finished_at)
            VALUES ('m', 'a', '{"message":{"title":"Old"}}', '{"all":true}', 'completed', \(t), 1, \(t), \(t + 9));
        INSERT INTO idempotency_keys (app_id, key, message_id, created_at) VALUES ('a', 'k', 'm', \(t));
        INSERT INTO deliveries (id, message_seq, device_seq, platform, state, attempts, provider_id, sent_at, created_at, updated_at)
            SELECT 'del', m.seq, v.seq, 'ios', 'rendered', 1, 'p-1', \(t + 5), \(t + 1), \(t + 8) FROM messages m, devices v WHERE m.id = 'm' AND v.id = 'dev';
        INSERT INTO delivery_events (delivery_seq, event, at, detail\(history.columns)) SELECT seq, 'rendered', \(t + 8), NULL\(history.value) FROM deliveries;
        INSERT INTO receipts (app_id, id, delivery_seq, event, received_at\(history.columns)) SELECT 'a', 'r1', seq, 'rendered', \(t + 8)\(history.value) FROM deliveries;
        """
    }

    /// What a user kept, read through the store, and the new tables at work: an endpoint made
    /// after the upgrade receives what happens from then on, not the history 0.1.0 wrote.
    static func expectKept(_ store: any Storage & RowCounting) async throws {
        #expect(try await store.app("a")?.name == "A")
        let device = try #require(try await store.device(appID: "a", id: "dev"))
        #expect(device.externalUserID == "user-1" && device.apnsEnvironment == nil)
        #expect(try await store.message(appID: "a", id: "m")?.state == .completed)
        let delivery = try #require(try await store.delivery(appID: "a", id: "del"))
        #expect(delivery.state == .rendered && delivery.providerID == "p-1" && delivery.deviceID == "dev")
        #expect(try await store.credentials(appID: "a").map(\.provider) == ["apns"])
        var replay = try NewMessage(
            id: "new", appID: "a", content: MessageContent(message: Message(title: "New"), variants: nil), audience: .everyone,
            sendAt: now, audienceSize: 0, createdAt: now)
        replay.requestDigest = String(repeating: "0", count: 64)
        let (replayed, wasReplayed) = try await store.createMessage(replay, idempotencyKey: "k", window: 4_000_000_000_000)
        #expect(wasReplayed && replayed.id == "m", "a key 0.1.0 stored, without a digest, replays its message")
        #expect(try await store.rowCount("messages") == 1)
        _ = try #require(try await store.createWebhookEndpoint(
            NewWebhookEndpoint(id: "e1", appID: "a", url: "https://x.example", types: nil, sealedSecret: [1], now: now, limit: 10)))
        _ = try await store.registerDevices(appID: "a", [(DeviceUpsert(platform: .android, token: "t2"), newID: "dev2")], now: now)
        // Fed until the event is there (on PostgreSQL a transaction open elsewhere in the cluster,
        // another test's, holds the feed back until it ends), for 60 s at most (a loaded machine ran past 20 s).
        var events: [WebhookEventRecord] = []
        for _ in 0..<6_000 where events.isEmpty {
            while try await store.feedWebhookEvents(limit: 100) > 0 {}
            events = try await store.webhookEvents(appID: "a", endpointID: "e1", after: 0, through: nil, limit: 10)
            if events.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(events.map(\.type) == ["device.registered"])
        #expect(events.first.flatMap { StoredJSON.decode(WebhookEventData.self, $0.data) }?.deviceId == "dev2")
    }

    @Test func sqliteMovesOnFromTheReleaseKeepingItsRows() async throws {
        #expect(Schema.migrations.count == Self.sqliteRelease + 1, "everything since 0.1.0 is one migration")
        let directory = TemporaryDirectory()
        let path = directory.path + "/notibase.sqlite"
        let old = try TestDatabase.sqlite(path, atVersion: Self.sqliteRelease)
        try old.execute(Self.rows(bytes: { "x'\($0)'" }, at: 1_000, history: ("", "")))
        let store = try SQLiteStore(path: path)
        let connection = try SQLiteConnection(path: path)
        #expect(try connection.first("PRAGMA user_version") { $0.int(0) } == Schema.migrations.count)
        #expect(try connection.first("SELECT health_state || ',' || coalesce(test_result, 'none') FROM credentials") { $0.text(0) } == "untested,none")
        #expect(try connection.first("SELECT event_seq FROM webhook_feed") { $0.int(0) } == 1, "the feed starts after the history 0.1.0 wrote")
        #expect(try SQLiteStore.integrityProblems(of: connection).isEmpty)
        try await Self.expectKept(store)

        let fresh = directory.path + "/fresh.sqlite"
        _ = try SQLiteStore(path: fresh)
        let (made, upgraded) = try (Self.sqliteSchema(SQLiteConnection(path: fresh)), Self.sqliteSchema(connection))
        #expect(made == upgraded, "only in one: \(Set(made).symmetricDifference(upgraded).sorted())")
        #expect(try Self.sqliteSchema(connection).contains { $0.hasPrefix("index deliveries_message_seq ") })
        #expect(try !Self.sqliteSchema(connection).contains { $0.hasPrefix("trigger ") && $0.contains(" ON deliveries") }, "no trigger writes sends")
    }

    @Test(.enabled(if: TestDatabase.isPostgres))
    func postgresMovesOnFromTheReleaseKeepingItsRows() async throws {
        #expect(PostgresSchema.migrations.count == Self.postgresRelease + 1, "everything since 0.1.0 is one migration")
        let base = try #require(TestDatabase.postgresURL)
        let (url, drop) = try TestDatabase.emptySchema(base)
        defer { drop() }
        let old = try TestDatabase.postgres(url, atVersion: Self.postgresRelease)
        try old.execute(Self.rows(bytes: { "'\\x\($0)'" }, at: Self.now, history: (", delivery_created_at", ", created_at")))
        let store = try await PostgresStore(url: url, poolSize: 1, now: Self.now)
        let connection = try PostgresConnection(url: url)
        #expect(try connection.query("SELECT max(version) FROM notibase_schema").first { $0.int(0) } == PostgresSchema.migrations.count)
        #expect(try connection.query("SELECT health_state || ',' || coalesce(test_result, 'none') FROM credentials").first { $0.text(0) } == "untested,none")
        #expect(try connection.query("SELECT count(*) FROM delivery_events WHERE tx IS NULL").first { $0.int(0) } == 1,
                "the history 0.1.0 wrote has no transaction ID: it is never fed")
        #expect(try PostgresStore.integrityProblems(of: connection).isEmpty)
        try await Self.expectKept(store)
        // As the endpoint's deletion leaves it: no trigger (they exist only while an endpoint does).
        #expect(try await store.deleteWebhookEndpoint(appID: "a", id: "e1"))

        let (freshURL, dropFresh) = try TestDatabase.emptySchema(base)
        defer { dropFresh() }
        _ = try await PostgresStore(url: freshURL, poolSize: 1, now: Self.now)
        let schema = try Self.postgresSchema(connection)
        let fresh = try Self.postgresSchema(PostgresConnection(url: freshURL))
        #expect(fresh == schema, "only in one: \(Set(fresh).symmetricDifference(schema).sorted())")
        #expect(schema.contains { $0.hasPrefix("index ") && $0.contains("deliveries_device_seq ") })
        #expect(!schema.contains { $0.hasPrefix("index ") && $0.contains("deliveries_device ") }, "(device_seq, seq) replaced (device_seq)")
        #expect(!schema.contains { $0.hasPrefix("column webhook_outbox.delivery_id") }, "sends are rows of lines, not an outbox row each")
        #expect(!schema.contains { $0.hasPrefix("trigger ") }, "no trigger without an endpoint")
    }

    /// Every table, index and trigger of a SQLite database, as `sqlite_master` holds them.
    static func sqliteSchema(_ connection: SQLiteConnection) throws -> [String] {
        try connection.query("SELECT type || ' ' || name || ' ' || coalesce(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name") {
            $0.text(0)
        }
    }

    /// The schema's tables and their columns, indexes, constraints, functions and triggers, from
    /// `pg_catalog`, leaving out the history's weekly partitions (made for the weeks a database
    /// has rows in) and the schema's own name.
    static func postgresSchema(_ connection: PostgresConnection) throws -> [String] {
        let name = try connection.query("SELECT current_schema()").first { $0.text(0) } ?? ""
        return try connection.query(
            """
            WITH tables AS (
                SELECT c.oid, c.relname FROM pg_class c
                WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
            )
            SELECT line FROM (
                SELECT 'column ' || t.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
                    || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '')
                    || CASE WHEN a.attidentity <> '' THEN ' identity' ELSE '' END AS line
                FROM tables t JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum > 0 AND NOT a.attisdropped
                LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
                UNION ALL
                SELECT 'index ' || pg_get_indexdef(i.indexrelid) FROM tables t JOIN pg_index i ON i.indrelid = t.oid
                UNION ALL
                SELECT 'constraint ' || t.relname || ' ' || k.conname || ' ' || pg_get_constraintdef(k.oid) FROM tables t JOIN pg_constraint k ON k.conrelid = t.oid AND k.conparentid = 0
                UNION ALL
                SELECT 'function ' || pg_get_functiondef(p.oid) FROM pg_proc p WHERE p.pronamespace = current_schema()::regnamespace
                UNION ALL
                SELECT 'trigger ' || g.tgname || ' ' || t.relname FROM tables t JOIN pg_trigger g ON g.tgrelid = t.oid AND NOT g.tgisinternal
            ) AS schema ORDER BY line
            """
        ).map { $0.text(0).replacingOccurrences(of: name + ".", with: "") }
    }
}
