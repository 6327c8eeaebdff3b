import NotibaseDomain
import NotibaseStore
/// The PostgreSQL schema, as numbered migrations recorded in `notibase_schema`. The same tables
/// and rules as SQLite's schema 2: identity columns (never reused), a foreign key with its delete
/// rule for every reference. Flags are integers (1 or 0), as in SQLite, so one row mapping reads
/// both (``Rows``). Migration 3 splits the delivery history into weekly partitions
/// (``historyByWeek``, PostgresSchema+History.swift); migration 5 gives a week its first statistics
/// (``historyStatistics``). Migrations 1 to 7 are 0.1.0's; what came after, unreleased, is one
/// step (``sinceRelease``), rewritten until the next release ships it.
package enum PostgresSchema {
    package static let migrations: [String] = [
        """
        CREATE TABLE settings (name TEXT PRIMARY KEY, value BYTEA NOT NULL);

        CREATE TABLE apps (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            server_key_hash BYTEA NOT NULL UNIQUE,
            client_key_hash BYTEA NOT NULL UNIQUE,
            credentials_revision BIGINT NOT NULL DEFAULT 0,
            created_at BIGINT NOT NULL,
            require_identity_verification INTEGER NOT NULL DEFAULT 0
        );

        CREATE TABLE credentials (
            app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
            provider TEXT NOT NULL,
            sealed BYTEA NOT NULL,
            summary TEXT NOT NULL,
            updated_at BIGINT NOT NULL,
            PRIMARY KEY (app_id, provider)
        );

        CREATE TABLE devices (
            seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
            platform TEXT NOT NULL,
            token TEXT NOT NULL,
            external_user_id TEXT,
            tags JSONB NOT NULL DEFAULT '[]',
            locale TEXT,
            time_zone TEXT,
            app_version TEXT,
            sdk_version TEXT,
            active INTEGER NOT NULL DEFAULT 1,
            deactivated_reason TEXT,
            deactivated_at BIGINT,
            created_at BIGINT NOT NULL,
            updated_at BIGINT NOT NULL,
            UNIQUE (app_id, platform, token)
        );
        CREATE INDEX devices_app ON devices(app_id, active, seq);
        CREATE INDEX devices_user ON devices(app_id, external_user_id) WHERE external_user_id IS NOT NULL;
        CREATE INDEX devices_tags ON devices USING GIN (tags);

        CREATE TABLE messages (
            seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
            content TEXT NOT NULL,
            audience TEXT NOT NULL,
            state TEXT NOT NULL,
            send_at BIGINT NOT NULL,
            audience_size BIGINT NOT NULL,
            fanout_cursor BIGINT NOT NULL DEFAULT 0,
            created_at BIGINT NOT NULL,
            finished_at BIGINT,
            failure_reason TEXT
        );
        CREATE INDEX messages_pending ON messages(send_at) WHERE state IN ('scheduled', 'fanningOut');
        CREATE INDEX messages_app ON messages(app_id, seq);
        CREATE INDEX messages_finished ON messages(finished_at) WHERE finished_at IS NOT NULL;

        CREATE TABLE idempotency_keys (
            app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
            key TEXT NOT NULL,
            message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
            created_at BIGINT NOT NULL,
            PRIMARY KEY (app_id, key)
        );
        CREATE INDEX idempotency_keys_message ON idempotency_keys(message_id);

        CREATE TABLE deliveries (
            seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            message_seq BIGINT NOT NULL REFERENCES messages(seq) ON DELETE CASCADE,
            device_seq BIGINT REFERENCES devices(seq) ON DELETE SET NULL,
            platform TEXT NOT NULL,
            variant TEXT,
            state TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            due_at BIGINT,
            provider_id TEXT,
            sent_at BIGINT,
            created_at BIGINT NOT NULL,
            updated_at BIGINT NOT NULL
        );
        CREATE INDEX deliveries_due ON deliveries(due_at) WHERE due_at IS NOT NULL;
        CREATE INDEX deliveries_message ON deliveries(message_seq, state, platform);
        CREATE INDEX deliveries_device ON deliveries(device_seq);

        CREATE TABLE delivery_events (
            seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            delivery_seq BIGINT NOT NULL REFERENCES deliveries(seq) ON DELETE CASCADE,
            event TEXT NOT NULL,
            at BIGINT NOT NULL,
            detail TEXT
        );
        CREATE INDEX delivery_events_delivery ON delivery_events(delivery_seq);

        CREATE TABLE receipts (
            app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
            id TEXT NOT NULL,
            delivery_seq BIGINT NOT NULL REFERENCES deliveries(seq) ON DELETE CASCADE,
            event TEXT NOT NULL,
            received_at BIGINT NOT NULL,
            PRIMARY KEY (app_id, id)
        );
        CREATE INDEX receipts_delivery ON receipts(delivery_seq);
        """,
        // 2: claims take turns between messages (each message's due deliveries, oldest first).
        """
        CREATE INDEX deliveries_message_due ON deliveries(message_seq, due_at) WHERE due_at IS NOT NULL;
        """,
        // 3: the delivery history in weekly partitions (PostgresSchema+History.swift).
        historyByWeek,
        // 4: pacing, as SQLite's schema 4.
        """
        ALTER TABLE apps ADD COLUMN pacing TEXT;
        ALTER TABLE messages ADD COLUMN pacing TEXT;
        ALTER TABLE deliveries ADD COLUMN moment_at BIGINT;
        ALTER TABLE deliveries ADD COLUMN scheduled_at BIGINT;
        ALTER TABLE deliveries ADD COLUMN schedule TEXT;
        """,
        // 5: a week's deliveries analyzed once its first are written (PostgresSchema+History.swift).
        historyStatistics,
        // 6: messages under way found through their state, as SQLite's schema 5 (docs/decisions/0014).
        """
        CREATE INDEX messages_state ON messages(state, app_id, seq);
        """,
        // 7: each app's stored bytes, as SQLite's schema 6.
        """
        ALTER TABLE apps ADD COLUMN stored_bytes BIGINT NOT NULL DEFAULT 0;
        UPDATE apps SET stored_bytes = coalesce(
            (SELECT sum(octet_length(content) + octet_length(audience)) FROM messages WHERE messages.app_id = apps.id), 0);
        """,
        // 8: everything since 0.1.0 (schema 7), in one step, as SQLite's schema 7
        // (PostgresSchema+SinceRelease.swift).
        sinceRelease,
    ]

    /// A key for `pg_advisory_xact_lock`: the migrations of one database run on one node at a
    /// time, however many start together.
    package static let migrationLock = 0x6e62_6d69_6772_6174  // "nbmigrat"

    /// Runs the migrations the database has not seen yet, in one transaction under the advisory
    /// lock. A database newer than this binary is refused.
    package static func migrate(_ connection: PostgresConnection) throws {
        try connection.transaction {
            try connection.run("SELECT pg_advisory_xact_lock($1)", [.int(migrationLock)])
            // Under the lock: two nodes creating it at once would collide in the catalogue
            // (`IF NOT EXISTS` does not make concurrent creation safe).
            try connection.execute("CREATE TABLE IF NOT EXISTS notibase_schema (version INTEGER NOT NULL)")
            let version = try connection.query("SELECT coalesce(max(version), 0) FROM notibase_schema").first { $0.int(0) } ?? 0
            guard version <= migrations.count else {
                throw StorageError.corrupt("the database was written by a newer Notibase (schema \(version), this one knows \(migrations.count))")
            }
            for (index, migration) in migrations.enumerated().dropFirst(version) {
                try connection.execute(migration)
                try connection.run("INSERT INTO notibase_schema (version) VALUES ($1)", [.int(index + 1)])
            }
        }
    }
}
