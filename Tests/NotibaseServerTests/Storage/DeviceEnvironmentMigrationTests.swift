import Foundation
import Testing
@testable import NotibaseServer
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// The devices' APNs environment came after the credentials' health (SQLite schema 7,
/// PostgreSQL 8): a database at that schema moves on to the next, keeping its devices (sent to
/// their app's environment), and a new one gets both.
@Suite("Device environment migration")
struct DeviceEnvironmentMigrationTests {
    @Test func sqliteMovesOnFromTheCredentialsHealth() async throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/notibase.sqlite"
        _ = try SQLiteStore(path: path)
        let fresh = try SQLiteConnection(path: path)
        #expect(try fresh.first("PRAGMA user_version") { $0.int(0) } == Schema.migrations.count)
        #expect(Schema.migrations.count == 13)
        _ = try fresh.query("SELECT apns_environment FROM devices") { _ in () }
        _ = try fresh.query("SELECT health_state FROM credentials") { _ in () }
        // Back to schema 7, with a device.
        try fresh.execute(
            """
            \(WebhookSchemaRollback.sqlite)
            ALTER TABLE devices DROP COLUMN apns_environment; ALTER TABLE idempotency_keys DROP COLUMN request_digest; ALTER TABLE credentials DROP COLUMN test_result; PRAGMA user_version = 7;
            INSERT INTO apps (id, name, server_key_hash, client_key_hash, created_at) VALUES ('a', 'A', x'01', x'02', 0);
            INSERT INTO devices (id, app_id, platform, token, created_at, updated_at) VALUES ('dev', 'a', 'ios', 't', 0, 0);
            """)
        let store = try SQLiteStore(path: path)
        #expect(try SQLiteConnection(path: path).first("PRAGMA user_version") { $0.int(0) } == 13)
        let device = try #require(try await store.device(appID: "a", id: "dev"))
        #expect(device.apnsEnvironment == nil)
    }

    @Test(.enabled(if: TestDatabase.isPostgres))
    func postgresMovesOnFromTheCredentialsHealth() async throws {
        let (url, drop) = try TestDatabase.emptySchema(try #require(TestDatabase.postgresURL))
        defer { drop() }
        let now = 1_799_625_600_000  // 2027-01-11 00:00 UTC
        _ = try await PostgresStore(url: url, poolSize: 1, now: now)
        let fresh = try PostgresConnection(url: url)
        #expect(try fresh.query("SELECT max(version) FROM notibase_schema").first { $0.int(0) } == PostgresSchema.migrations.count)
        #expect(PostgresSchema.migrations.count == 15)
        _ = try fresh.query("SELECT apns_environment FROM devices")
        _ = try fresh.query("SELECT health_state FROM credentials")
        // Back to schema 8, with a device.
        try fresh.execute(
            """
            \(WebhookSchemaRollback.postgres)
            ALTER TABLE devices DROP COLUMN apns_environment; DELETE FROM notibase_schema WHERE version = 9;
            ALTER TABLE idempotency_keys DROP COLUMN request_digest; DELETE FROM notibase_schema WHERE version = 13;
            ALTER TABLE credentials DROP COLUMN test_result; DELETE FROM notibase_schema WHERE version = 15;
            INSERT INTO apps (id, name, server_key_hash, client_key_hash, created_at) VALUES ('a', 'A', '\\x01', '\\x02', 0);
            INSERT INTO devices (id, app_id, platform, token, created_at, updated_at) VALUES ('dev', 'a', 'ios', 't', 0, 0);
            """)
        let store = try await PostgresStore(url: url, poolSize: 1, now: now)
        #expect(try PostgresConnection(url: url).query("SELECT max(version) FROM notibase_schema").first { $0.int(0) } == 15)
        let device = try #require(try await store.device(appID: "a", id: "dev"))
        #expect(device.apnsEnvironment == nil)
    }
}
