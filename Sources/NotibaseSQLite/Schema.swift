import NotibaseDomain
/// The database schema, as numbered migrations. `PRAGMA user_version` records how many have run;
/// a server only ever adds migrations to those a release shipped, so an upgrade is: stop, back up,
/// start the new version. Migrations 1 to 6 are 0.1.0's; what came after, unreleased, is one step
/// (``sinceRelease``), rewritten until the next release ships it.
package enum Schema {
    package static let migrations: [String] = [
        """
        CREATE TABLE settings (name TEXT PRIMARY KEY, value BLOB NOT NULL);

        CREATE TABLE apps (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            server_key_hash BLOB NOT NULL UNIQUE,
            client_key_hash BLOB NOT NULL UNIQUE,
            credentials_revision INTEGER NOT NULL DEFAULT 0,
            created_at INTEGER NOT NULL
        );

        CREATE TABLE credentials (
            app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
            provider TEXT NOT NULL,
            sealed BLOB NOT NULL,
            summary TEXT NOT NULL,
            updated_at INTEGER NOT NULL,
            PRIMARY KEY (app_id, provider)
        );

        CREATE TABLE devices (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
            platform TEXT NOT NULL,
            token TEXT NOT NULL,
            external_user_id TEXT,
            tags TEXT NOT NULL DEFAULT '[]',
            locale TEXT,
            time_zone TEXT,
            app_version TEXT,
            sdk_version TEXT,
            active INTEGER NOT NULL DEFAULT 1,
            deactivated_reason TEXT,
            deactivated_at INTEGER,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            UNIQUE (app_id, platform, token)
        );
        CREATE INDEX devices_app ON devices(app_id, active);
        CREATE INDEX devices_user ON devices(app_id, external_user_id) WHERE external_user_id IS NOT NULL;

        CREATE TABLE messages (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
            content TEXT NOT NULL,
            audience TEXT NOT NULL,
            state TEXT NOT NULL,
            send_at INTEGER NOT NULL,
            audience_size INTEGER NOT NULL,
            fanout_cursor INTEGER NOT NULL DEFAULT 0,
            created_at INTEGER NOT NULL,
            finished_at INTEGER
        );
        CREATE INDEX messages_pending ON messages(send_at) WHERE state IN ('scheduled', 'fanningOut');
        CREATE INDEX messages_app ON messages(app_id, seq);

        CREATE TABLE idempotency_keys (
            app_id TEXT NOT NULL,
            key TEXT NOT NULL,
            message_id TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            PRIMARY KEY (app_id, key)
        );

        CREATE TABLE deliveries (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            message_seq INTEGER NOT NULL,
            device_seq INTEGER NOT NULL,
            platform TEXT NOT NULL,
            variant TEXT,
            state TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            due_at INTEGER,
            provider_id TEXT,
            sent_at INTEGER,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL
        );
        CREATE INDEX deliveries_due ON deliveries(due_at) WHERE due_at IS NOT NULL;
        CREATE INDEX deliveries_message ON deliveries(message_seq, state, platform);
        CREATE INDEX deliveries_device ON deliveries(device_seq);

        CREATE TABLE delivery_events (
            seq INTEGER PRIMARY KEY,
            delivery_seq INTEGER NOT NULL,
            event TEXT NOT NULL,
            at INTEGER NOT NULL,
            detail TEXT
        );
        CREATE INDEX delivery_events_delivery ON delivery_events(delivery_seq);

        CREATE TABLE receipts (
            app_id TEXT NOT NULL,
            id TEXT NOT NULL,
            delivery_seq INTEGER NOT NULL,
            event TEXT NOT NULL,
            received_at INTEGER NOT NULL,
            PRIMARY KEY (app_id, id)
        );
        """,
        // 2: identities are never reused and every reference is enforced. Row IDs become
        // AUTOINCREMENT (a deleted device's or message's number is never handed out again), and
        // each table that points at another says what happens when that row is deleted. Rows the
        // first schema could leave behind (the deliveries and events of deleted apps and
        // messages, deliveries pointing at a device number reused by a later device) are removed
        // or detached on the way, so the foreign keys hold from the start.
        """
        DELETE FROM credentials WHERE app_id NOT IN (SELECT id FROM apps);
        DELETE FROM devices WHERE app_id NOT IN (SELECT id FROM apps);
        DELETE FROM messages WHERE app_id NOT IN (SELECT id FROM apps);
        DELETE FROM deliveries WHERE NOT EXISTS (
            SELECT 1 FROM messages m WHERE m.seq = deliveries.message_seq AND m.created_at <= deliveries.created_at);
        DELETE FROM delivery_events WHERE delivery_seq NOT IN (SELECT seq FROM deliveries);
        DELETE FROM receipts WHERE NOT EXISTS (
            SELECT 1 FROM deliveries d JOIN messages m ON m.seq = d.message_seq WHERE d.seq = receipts.delivery_seq AND m.app_id = receipts.app_id);
        DELETE FROM idempotency_keys WHERE NOT EXISTS (
            SELECT 1 FROM messages m WHERE m.id = idempotency_keys.message_id AND m.app_id = idempotency_keys.app_id);

        CREATE TABLE new_apps (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            server_key_hash BLOB NOT NULL UNIQUE,
            client_key_hash BLOB NOT NULL UNIQUE,
            credentials_revision INTEGER NOT NULL DEFAULT 0,
            created_at INTEGER NOT NULL,
            require_identity_verification INTEGER NOT NULL DEFAULT 0
        );
        INSERT INTO new_apps (id, name, server_key_hash, client_key_hash, credentials_revision, created_at)
            SELECT id, name, server_key_hash, client_key_hash, credentials_revision, created_at FROM apps;
        DROP TABLE apps;
        ALTER TABLE new_apps RENAME TO apps;

        CREATE TABLE new_devices (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
            platform TEXT NOT NULL,
            token TEXT NOT NULL,
            external_user_id TEXT,
            tags TEXT NOT NULL DEFAULT '[]',
            locale TEXT,
            time_zone TEXT,
            app_version TEXT,
            sdk_version TEXT,
            active INTEGER NOT NULL DEFAULT 1,
            deactivated_reason TEXT,
            deactivated_at INTEGER,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            UNIQUE (app_id, platform, token)
        );
        INSERT INTO new_devices SELECT * FROM devices;
        DROP TABLE devices;
        ALTER TABLE new_devices RENAME TO devices;
        CREATE INDEX devices_app ON devices(app_id, active);
        CREATE INDEX devices_user ON devices(app_id, external_user_id) WHERE external_user_id IS NOT NULL;

        CREATE TABLE new_messages (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
            content TEXT NOT NULL,
            audience TEXT NOT NULL,
            state TEXT NOT NULL,
            send_at INTEGER NOT NULL,
            audience_size INTEGER NOT NULL,
            fanout_cursor INTEGER NOT NULL DEFAULT 0,
            created_at INTEGER NOT NULL,
            finished_at INTEGER,
            failure_reason TEXT
        );
        INSERT INTO new_messages (seq, id, app_id, content, audience, state, send_at, audience_size, fanout_cursor, created_at, finished_at)
            SELECT seq, id, app_id, content, audience, state, send_at, audience_size, fanout_cursor, created_at, finished_at FROM messages;
        DROP TABLE messages;
        ALTER TABLE new_messages RENAME TO messages;
        CREATE INDEX messages_pending ON messages(send_at) WHERE state IN ('scheduled', 'fanningOut');
        CREATE INDEX messages_app ON messages(app_id, seq);
        CREATE INDEX messages_finished ON messages(finished_at) WHERE finished_at IS NOT NULL;

        CREATE TABLE new_idempotency_keys (
            app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
            key TEXT NOT NULL,
            message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
            created_at INTEGER NOT NULL,
            PRIMARY KEY (app_id, key)
        );
        INSERT INTO new_idempotency_keys SELECT * FROM idempotency_keys;
        DROP TABLE idempotency_keys;
        ALTER TABLE new_idempotency_keys RENAME TO idempotency_keys;
        CREATE INDEX idempotency_keys_message ON idempotency_keys(message_id);

        CREATE TABLE new_deliveries (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            message_seq INTEGER NOT NULL REFERENCES messages(seq) ON DELETE CASCADE,
            device_seq INTEGER REFERENCES devices(seq) ON DELETE SET NULL,
            platform TEXT NOT NULL,
            variant TEXT,
            state TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            due_at INTEGER,
            provider_id TEXT,
            sent_at INTEGER,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL
        );
        INSERT INTO new_deliveries SELECT * FROM deliveries;
        DROP TABLE deliveries;
        ALTER TABLE new_deliveries RENAME TO deliveries;
        UPDATE deliveries SET device_seq = NULL WHERE NOT EXISTS (
            SELECT 1 FROM devices v JOIN messages m ON m.seq = deliveries.message_seq
            WHERE v.seq = deliveries.device_seq AND v.app_id = m.app_id AND v.created_at <= deliveries.created_at);
        UPDATE deliveries SET state = 'failed', due_at = NULL WHERE device_seq IS NULL AND state IN ('queued', 'retrying');
        CREATE INDEX deliveries_due ON deliveries(due_at) WHERE due_at IS NOT NULL;
        CREATE INDEX deliveries_message ON deliveries(message_seq, state, platform);
        CREATE INDEX deliveries_device ON deliveries(device_seq);

        CREATE TABLE new_delivery_events (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            delivery_seq INTEGER NOT NULL REFERENCES deliveries(seq) ON DELETE CASCADE,
            event TEXT NOT NULL,
            at INTEGER NOT NULL,
            detail TEXT
        );
        INSERT INTO new_delivery_events SELECT * FROM delivery_events;
        DROP TABLE delivery_events;
        ALTER TABLE new_delivery_events RENAME TO delivery_events;
        CREATE INDEX delivery_events_delivery ON delivery_events(delivery_seq);

        CREATE TABLE new_receipts (
            app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
            id TEXT NOT NULL,
            delivery_seq INTEGER NOT NULL REFERENCES deliveries(seq) ON DELETE CASCADE,
            event TEXT NOT NULL,
            received_at INTEGER NOT NULL,
            PRIMARY KEY (app_id, id)
        );
        INSERT INTO new_receipts SELECT * FROM receipts;
        DROP TABLE receipts;
        ALTER TABLE new_receipts RENAME TO receipts;
        CREATE INDEX receipts_delivery ON receipts(delivery_seq);
        """,
        // 3: claims take turns between messages (each message's due deliveries, oldest first).
        """
        CREATE INDEX deliveries_message_due ON deliveries(message_seq, due_at) WHERE due_at IS NOT NULL;
        """,
        // 4: pacing. An app's quiet hours and default rate, a message's local time, rate and
        // quiet hours (with the rate's progress), and what they decided for each delivery: the
        // moment it was meant for (its TTL counts from it), when it was first due, and the detail
        // of its `scheduled` history entry. Deliveries due later wait in the due index like
        // retries do, so claiming the due ones reads past none of them.
        """
        ALTER TABLE apps ADD COLUMN pacing TEXT;
        ALTER TABLE messages ADD COLUMN pacing TEXT;
        ALTER TABLE deliveries ADD COLUMN moment_at INTEGER;
        ALTER TABLE deliveries ADD COLUMN scheduled_at INTEGER;
        ALTER TABLE deliveries ADD COLUMN schedule TEXT;
        """,
        // 5: every statement on the request and delivery paths is bounded by what it returns, not
        // by the tables (docs/decisions/0014). Claims and the completion sweep find the messages
        // under way through their state, never by reading every stored message (content included).
        """
        CREATE INDEX messages_state ON messages(state, app_id, seq);
        """,
        // 6: each app's stored bytes (its messages' content and audience), for its quota: counted
        // from what is stored now, then kept up to date by every insert and removal.
        """
        ALTER TABLE apps ADD COLUMN stored_bytes INTEGER NOT NULL DEFAULT 0;
        UPDATE apps SET stored_bytes = coalesce(
            (SELECT sum(length(CAST(content AS BLOB)) + length(CAST(audience AS BLOB))) FROM messages WHERE messages.app_id = apps.id), 0);
        """,
        // 7: everything since 0.1.0 (schema 6), in one step (Schema+SinceRelease.swift): each
        // credential's health and test result, each device's APNs environment, an idempotency
        // key's request digest, a message's delivery log in `seq` order, and webhooks.
        sinceRelease
    ]

    /// Runs the migrations the database has not seen yet, each in its own transaction.
    ///
    /// Foreign keys are off while they run (SQLite's way of rebuilding a table that others point
    /// at: the setting cannot change inside a transaction), and each migration commits only when
    /// `foreign_key_check` finds nothing wrong.
    package static func migrate(_ connection: SQLiteConnection) throws {
        let version = try connection.first("PRAGMA user_version") { $0.int(0) } ?? 0
        guard version <= migrations.count else {
            throw StorageError.corrupt("the database was written by a newer Notibase (schema \(version), this one knows \(migrations.count))")
        }
        guard version < migrations.count else { return }
        try connection.execute("PRAGMA foreign_keys = OFF")
        defer { try? connection.execute("PRAGMA foreign_keys = ON") }
        for (index, migration) in migrations.enumerated().dropFirst(version) {
            try connection.transaction {
                try connection.execute(migration)
                let broken = try connection.query("PRAGMA foreign_key_check") { "\($0.text(0)) row \($0.int(1)) → \($0.text(2))" }
                guard broken.isEmpty else {
                    throw StorageError.corrupt("migration \(index + 1) left references that do not hold: \(broken.prefix(5).joined(separator: ", "))")
                }
                try connection.execute("PRAGMA user_version = \(index + 1)")
            }
        }
    }
}
