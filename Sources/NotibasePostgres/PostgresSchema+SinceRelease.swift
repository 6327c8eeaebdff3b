extension PostgresSchema {
    /// PostgreSQL's migration 8: what came after 0.1.0 (schema 7), as SQLite's schema 7
    /// (``Schema/sinceRelease``), and how the feed finds the order rows committed in
    /// (docs/decisions/0037).
    ///
    /// PostgreSQL hands out identity numbers before commit, so a reader that moves past number 11
    /// may later see number 10 commit. The outbox and the delivery history therefore carry the ID
    /// of the transaction that wrote them (`tx`, a 64-bit `xid8` that never wraps), and the feed
    /// reads only rows of transactions older than every transaction still running
    /// (`pg_snapshot_xmin`): no row of a transaction below that horizon can appear any more, so a
    /// cursor over (tx, seq) skips nothing. The history's rows written before this migration have
    /// no `tx` (added without a default first: no rewrite of the history) and are never fed.
    ///
    /// The message and device triggers exist only while the database has an endpoint
    /// (`notibase_webhook_triggers()`, called as an endpoint is made or deleted, and as an app is):
    /// a database without webhooks pays nothing. A batch's sends' `delivery.sent` rows are
    /// written by the workers' record statement, not by a trigger (``PostgresStore/record``).
    /// `(device_seq, seq)` serves whatever `(device_seq)` did, which goes.
    /// The Live Activity registry's two tables are SQLite's (issue 46).
    package static let sinceRelease = """
        ALTER TABLE credentials ADD COLUMN health_state TEXT NOT NULL DEFAULT 'untested';
        ALTER TABLE credentials ADD COLUMN last_success_at BIGINT;
        ALTER TABLE credentials ADD COLUMN last_failure_at BIGINT;
        ALTER TABLE credentials ADD COLUMN last_failure_reason TEXT;
        ALTER TABLE credentials ADD COLUMN test_result TEXT;
        ALTER TABLE devices ADD COLUMN apns_environment TEXT;
        ALTER TABLE idempotency_keys ADD COLUMN request_digest TEXT;
        CREATE INDEX deliveries_message_seq ON deliveries(message_seq, seq);
        CREATE INDEX deliveries_device_seq ON deliveries(device_seq, seq);
        DROP INDEX deliveries_device;

        CREATE TABLE webhook_endpoints (
            seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
            url TEXT NOT NULL,
            types TEXT,
            description TEXT,
            secret BYTEA NOT NULL,
            previous_secret BYTEA,
            previous_secret_until BIGINT,
            enabled INTEGER NOT NULL DEFAULT 1,
            disabled_reason TEXT,
            cursor BIGINT NOT NULL DEFAULT 0,
            batch_id TEXT,
            batch_last BIGINT,
            batch_attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_at BIGINT,
            failing_since BIGINT,
            lease_owner TEXT,
            lease_until BIGINT,
            revision BIGINT NOT NULL DEFAULT 0,
            created_at BIGINT NOT NULL,
            updated_at BIGINT NOT NULL
        );
        CREATE INDEX webhook_endpoints_app ON webhook_endpoints(app_id, seq);

        CREATE TABLE webhook_events (
            seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
            endpoint_id TEXT REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
            type TEXT NOT NULL,
            at BIGINT NOT NULL,
            data TEXT NOT NULL,
            count INTEGER NOT NULL DEFAULT 1
        );
        CREATE INDEX webhook_events_app ON webhook_events(app_id, seq);
        CREATE INDEX webhook_events_at ON webhook_events(at);
        CREATE INDEX webhook_events_endpoint ON webhook_events(endpoint_id) WHERE endpoint_id IS NOT NULL;

        CREATE TABLE webhook_outbox (
            seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            tx xid8 NOT NULL DEFAULT pg_current_xact_id(),
            app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
            endpoint_id TEXT REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
            type TEXT NOT NULL,
            at BIGINT NOT NULL,
            message_id TEXT,
            device_id TEXT,
            external_user_id TEXT,
            platform TEXT,
            reason TEXT,
            audience_size BIGINT,
            count INTEGER NOT NULL DEFAULT 1,
            events TEXT
        );
        CREATE INDEX webhook_outbox_tx ON webhook_outbox(tx, seq);
        CREATE INDEX webhook_outbox_endpoint ON webhook_outbox(endpoint_id) WHERE endpoint_id IS NOT NULL;

        CREATE TABLE webhook_attempts (
            seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
            batch_id TEXT NOT NULL,
            events INTEGER NOT NULL,
            at BIGINT NOT NULL,
            outcome TEXT NOT NULL,
            status INTEGER,
            latency_ms BIGINT NOT NULL,
            answer TEXT NOT NULL,
            next_retry_at BIGINT
        );
        CREATE INDEX webhook_attempts_endpoint ON webhook_attempts(endpoint_id, seq);

        CREATE TABLE live_activity_start_tokens (
            device_seq BIGINT NOT NULL REFERENCES devices(seq) ON DELETE CASCADE,
            app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
            attributes_type TEXT NOT NULL,
            token TEXT NOT NULL,
            apns_environment TEXT,
            content_state_schema TEXT,
            updated_at BIGINT NOT NULL,
            PRIMARY KEY (device_seq, attributes_type)
        );
        CREATE INDEX live_activity_start_tokens_app ON live_activity_start_tokens(app_id, attributes_type);

        CREATE TABLE live_activity_tokens (
            seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
            activity_id TEXT NOT NULL,
            device_seq BIGINT NOT NULL REFERENCES devices(seq) ON DELETE CASCADE,
            attributes_type TEXT,
            token TEXT,
            state TEXT NOT NULL,
            updated_at BIGINT NOT NULL,
            UNIQUE (app_id, activity_id, device_seq)
        );
        CREATE INDEX live_activity_tokens_activity ON live_activity_tokens(app_id, activity_id, seq);
        CREATE INDEX live_activity_tokens_device ON live_activity_tokens(device_seq);

        ALTER TABLE delivery_events ADD COLUMN tx xid8;
        ALTER TABLE delivery_events ALTER COLUMN tx SET DEFAULT pg_current_xact_id();
        CREATE INDEX delivery_events_tx ON delivery_events(tx, seq) WHERE tx IS NOT NULL;

        CREATE TABLE webhook_feed (id INTEGER PRIMARY KEY CHECK (id = 1), event_tx xid8 NOT NULL, event_seq BIGINT NOT NULL);
        INSERT INTO webhook_feed (id, event_tx, event_seq) VALUES (1, pg_current_xact_id(), 0);

        CREATE FUNCTION notibase_webhook_message() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF NOT EXISTS (SELECT 1 FROM webhook_endpoints WHERE app_id = NEW.app_id) THEN
                RETURN NULL;
            END IF;
            IF TG_OP = 'INSERT' THEN
                INSERT INTO webhook_outbox (app_id, type, at, message_id, audience_size)
                VALUES (NEW.app_id, 'message.created', NEW.created_at, NEW.id, NEW.audience_size);
            END IF;
            IF NEW.state IN ('completed', 'cancelled', 'failed') AND (TG_OP = 'INSERT' OR OLD.state <> NEW.state) THEN
                INSERT INTO webhook_outbox (app_id, type, at, message_id, reason, audience_size)
                VALUES (NEW.app_id, 'message.' || NEW.state, coalesce(NEW.finished_at, NEW.created_at), NEW.id, NEW.failure_reason, NEW.audience_size);
            END IF;
            RETURN NULL;
        END
        $$;

        CREATE FUNCTION notibase_webhook_device() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF NOT EXISTS (SELECT 1 FROM webhook_endpoints WHERE app_id = NEW.app_id) THEN
                RETURN NULL;
            END IF;
            IF TG_OP = 'INSERT' OR NEW.active = 1 THEN
                INSERT INTO webhook_outbox (app_id, type, at, device_id, external_user_id, platform)
                VALUES (NEW.app_id, 'device.registered', CASE TG_OP WHEN 'INSERT' THEN NEW.created_at ELSE NEW.updated_at END,
                    NEW.id, NEW.external_user_id, NEW.platform);
            ELSE
                INSERT INTO webhook_outbox (app_id, type, at, device_id, external_user_id, platform, reason)
                VALUES (NEW.app_id, 'device.deactivated', coalesce(NEW.deactivated_at, NEW.updated_at), NEW.id, NEW.external_user_id,
                    NEW.platform, NEW.deactivated_reason);
            END IF;
            RETURN NULL;
        END
        $$;

        -- Makes the triggers when the database has an endpoint and none yet, and drops them when
        -- it has none left (webhook_message_created says whether they exist).
        CREATE FUNCTION notibase_webhook_triggers() RETURNS VOID LANGUAGE plpgsql AS $$
        BEGIN
            IF EXISTS (SELECT 1 FROM webhook_endpoints) THEN
                IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'webhook_message_created' AND tgrelid = 'messages'::regclass) THEN
                    CREATE TRIGGER webhook_message_created AFTER INSERT ON messages FOR EACH ROW EXECUTE FUNCTION notibase_webhook_message();
                    CREATE TRIGGER webhook_message_finished AFTER UPDATE OF state ON messages FOR EACH ROW
                        WHEN (NEW.state IN ('completed', 'cancelled', 'failed') AND OLD.state <> NEW.state) EXECUTE FUNCTION notibase_webhook_message();
                    CREATE TRIGGER webhook_device_registered AFTER INSERT ON devices FOR EACH ROW EXECUTE FUNCTION notibase_webhook_device();
                    CREATE TRIGGER webhook_device_active AFTER UPDATE OF active ON devices FOR EACH ROW
                        WHEN (OLD.active <> NEW.active) EXECUTE FUNCTION notibase_webhook_device();
                END IF;
            ELSIF EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'webhook_message_created' AND tgrelid = 'messages'::regclass) THEN
                DROP TRIGGER webhook_message_created ON messages;
                DROP TRIGGER webhook_message_finished ON messages;
                DROP TRIGGER webhook_device_registered ON devices;
                DROP TRIGGER webhook_device_active ON devices;
            END IF;
        END
        $$;
        """
}
