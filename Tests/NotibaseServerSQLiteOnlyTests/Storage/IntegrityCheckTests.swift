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
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// The storage integrity check (`notibase serve --check`, and the end of every harness test) and
/// the migration that made identities safe on databases written by the first schema.
@Suite("Storage integrity check")
struct IntegrityCheckTests {
    /// A database at schema 1, as the first release wrote it, in a fresh directory.
    static func firstSchemaDatabase(_ directory: TemporaryDirectory) throws -> (path: String, connection: SQLiteConnection) {
        let path = directory.path + "/notibase.sqlite"
        let connection = try SQLiteConnection(path: path)
        try connection.transaction {
            try connection.execute(Schema.migrations[0])
            try connection.execute("PRAGMA user_version = 1")
        }
        return (path, connection)
    }

    @Test func aNewDatabaseIsConsistentAndEnforcesItsReferences() throws {
        let directory = TemporaryDirectory()
        let store = try SQLiteStore(path: directory.path + "/notibase.sqlite")
        let problems = try SQLiteStore.integrityProblems(of: SQLiteConnection(path: directory.path + "/notibase.sqlite"))
        #expect(problems.isEmpty)
        // A delivery of a message that does not exist is refused by the database itself.
        let connection = try SQLiteConnection(path: directory.path + "/notibase.sqlite")
        #expect(throws: StorageError.self) {
            try connection.run(
                "INSERT INTO deliveries (id, message_seq, device_seq, platform, state, created_at, updated_at) VALUES ('d', 999, NULL, 'ios', 'queued', 0, 0)")
        }
        _ = store
    }

    @Test func theCheckFindsOrphansAndCrossAppReferences() throws {
        let directory = TemporaryDirectory()
        _ = try SQLiteStore(path: directory.path + "/notibase.sqlite")
        let connection = try SQLiteConnection(path: directory.path + "/notibase.sqlite")
        // What a bug (or a hand edit) could leave: written with the checks off.
        try connection.execute("""
            PRAGMA foreign_keys = OFF;
            INSERT INTO apps (id, name, server_key_hash, client_key_hash, created_at) VALUES ('a', 'A', x'01', x'02', 0), ('b', 'B', x'03', x'04', 0);
            INSERT INTO devices (seq, id, app_id, platform, token, created_at, updated_at) VALUES (1, 'dev-b', 'b', 'ios', 'tb', 0, 0);
            INSERT INTO messages (seq, id, app_id, content, audience, state, send_at, audience_size, created_at)
                VALUES (1, 'msg-a', 'a', '{}', '{}', 'sending', 0, 1, 0);
            INSERT INTO deliveries (id, message_seq, device_seq, platform, state, due_at, created_at, updated_at)
                VALUES ('cross', 1, 1, 'ios', 'queued', 5, 10, 10), ('orphan', 42, NULL, 'ios', 'sent', NULL, 10, 10);
            INSERT INTO live_activity_tokens (app_id, activity_id, device_seq, state, updated_at) VALUES ('a', 'order-cross', 1, 'active', 10);
            """)
        let problems = try SQLiteStore.integrityProblems(of: connection)
        #expect(problems.contains { $0.contains("Live Activity token") && $0.contains("order-cross") }, "\(problems)")
        #expect(problems.contains { $0.contains("deliveries") && $0.contains("missing messages") }, "\(problems)")
        #expect(problems.contains { $0.contains("a device of another app") && $0.contains("cross") }, "\(problems)")
    }

    /// A database written by the first schema, holding what its bugs left (the deliveries of a
    /// deleted app, a delivery pointing at a device number that a later device reused), is
    /// migrated to one the check finds clean, and the reused number no longer leads anywhere.
    @Test func migratingTheFirstSchemaDetachesWhatItsBugsLeft() async throws {
        let directory = TemporaryDirectory()
        let (path, connection) = try Self.firstSchemaDatabase(directory)
        // Written with the checks off: what the first schema's bugs left behind.
        try connection.execute("""
            PRAGMA foreign_keys = OFF;
            INSERT INTO apps (id, name, server_key_hash, client_key_hash, created_at) VALUES ('a', 'A', x'01', x'02', 0);
            INSERT INTO messages (seq, id, app_id, content, audience, state, send_at, audience_size, created_at)
                VALUES (7, 'msg-gone-app', 'deleted-app', '{}', '{}', 'sending', 0, 1, 100);
            INSERT INTO devices (seq, id, app_id, platform, token, created_at, updated_at) VALUES (3, 'dev-a', 'a', 'ios', 'ta', 500, 500);
            INSERT INTO messages (seq, id, app_id, content, audience, state, send_at, audience_size, created_at)
                VALUES (8, 'msg-a', 'a', '{"message":{"title":"x"}}', '{"all":true}', 'sending', 0, 1, 100);
            INSERT INTO deliveries (seq, id, message_seq, device_seq, platform, state, due_at, created_at, updated_at)
                VALUES (1, 'retry-for-old-device', 8, 3, 'ios', 'retrying', 900, 200, 200),
                       (2, 'left-by-deleted-message', 99, 3, 'ios', 'sent', NULL, 200, 200);
            INSERT INTO delivery_events (delivery_seq, event, at) VALUES (2, 'rendered', 300);
            INSERT INTO receipts (app_id, id, delivery_seq, event, received_at) VALUES ('a', 'r', 2, 'rendered', 300);
            """)
        let store = try SQLiteStore(path: path)
        #expect(try await store.integrityProblems() == [])
        #expect(try await store.rowCount("delivery_events") == 0)
        #expect(try await store.rowCount("receipts") == 0)
        let claimed = try await store.claimDeliveries(now: 10_000, lease: 1_000, limit: 10)
        #expect(claimed.isEmpty, "the delivery made before device 3 existed must not be sent to it")
        let kept = try await store.deliveries(messageSeq: 8, state: nil, afterSeq: 0, limit: 10)
        #expect(kept.map(\.id) == ["retry-for-old-device"] && kept[0].deviceID == nil && kept[0].state == .failed)
    }

    @Test func aDatabaseNewerThanTheServerIsRefused() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/notibase.sqlite"
        try SQLiteConnection(path: path).execute("PRAGMA user_version = \(Schema.migrations.count + 1)")
        #expect(throws: StorageError.self) { try SQLiteStore(path: path) }
    }
}
