/// The database schema, as numbered migrations. `PRAGMA user_version` records how many have run;
/// a server only ever adds migrations, so an upgrade is: stop, back up, start the new version.
enum Schema {
    static let migrations: [String] = [
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
    ]

    /// Runs the migrations the database has not seen yet, each in its own transaction.
    static func migrate(_ connection: SQLiteConnection) throws {
        let version = try connection.first("PRAGMA user_version") { $0.int(0) } ?? 0
        guard version <= migrations.count else {
            throw StorageError.corrupt("the database was written by a newer Notibase (schema \(version), this one knows \(migrations.count))")
        }
        for (index, migration) in migrations.enumerated().dropFirst(version) {
            try connection.transaction {
                try connection.execute(migration)
                try connection.execute("PRAGMA user_version = \(index + 1)")
            }
        }
    }
}
