import Foundation
import NotibaseCore
import Testing
@testable import NotibaseServer
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// Idempotency keys keep their request's digest from SQLite's schema 11 and PostgreSQL's 13 on: a
/// database at the schema before moves on, and a key it stored (without a digest) replays its
/// message to any request, as it did before.
@Suite("Idempotency digest migration")
struct IdempotencyDigestMigrationTests {
    static let rows = """
        INSERT INTO messages (id, app_id, content, audience, state, send_at, audience_size, created_at)
            VALUES ('old', 'a', '{"message":{"title":"Old"}}', '{"all":true}', 'completed', 100, 0, 100);
        INSERT INTO idempotency_keys (app_id, key, message_id, created_at) VALUES ('a', 'k', 'old', 100);
        """

    /// A send with the key, another request than the one that stored it.
    static func replay(_ store: any Storage) async throws -> (MessageRecord, replayed: Bool) {
        var message = try NewMessage(
            id: "new", appID: "a", content: MessageContent(message: Message(title: "New"), variants: nil), audience: .everyone,
            sendAt: 200, audienceSize: 0, createdAt: 200)
        message.requestDigest = String(repeating: "0", count: 64)
        return try await store.createMessage(message, idempotencyKey: "k", window: 1_000)
    }

    @Test func sqliteMovesOnAndAnOldKeyReplays() async throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/notibase.sqlite"
        let old = try TestDatabase.sqlite(path, atVersion: 10)
        try old.execute(
            """
            INSERT INTO apps (id, name, server_key_hash, client_key_hash, created_at) VALUES ('a', 'A', x'01', x'02', 0);
            \(Self.rows)
            """)
        let store = try SQLiteStore(path: path)
        #expect(try SQLiteConnection(path: path).first("PRAGMA user_version") { $0.int(0) } == Schema.migrations.count)
        let (record, replayed) = try await Self.replay(store)
        #expect(replayed && record.id == "old")
        #expect(try await store.rowCount("messages") == 1)
    }

    @Test(.enabled(if: TestDatabase.isPostgres))
    func postgresMovesOnAndAnOldKeyReplays() async throws {
        let (url, drop) = try TestDatabase.emptySchema(try #require(TestDatabase.postgresURL))
        defer { drop() }
        let old = try TestDatabase.postgres(url, atVersion: 12)
        try old.execute(
            """
            INSERT INTO apps (id, name, server_key_hash, client_key_hash, created_at) VALUES ('a', 'A', '\\x01', '\\x02', 0);
            \(Self.rows)
            """)
        let store = try await PostgresStore(url: url, poolSize: 1, now: 1_799_625_600_000)
        #expect(try PostgresConnection(url: url).query("SELECT max(version) FROM notibase_schema").first { $0.int(0) } == PostgresSchema.migrations.count)
        let (record, replayed) = try await Self.replay(store)
        #expect(replayed && record.id == "old")
        #expect(try await store.rowCount("messages") == 1)
    }
}
