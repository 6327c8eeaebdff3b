extension PostgresSchema {
    /// Migration 10: the webhooks' tables as SQLite's schema 9, and how the feed finds the order
    /// rows committed in (docs/decisions/0037). PostgreSQL hands out identity numbers before
    /// commit, so a reader that moves past number 11 may later see number 10 commit. The outbox and
    /// the delivery history therefore carry the ID of the transaction that wrote them (`tx`, a
    /// 64-bit `xid8` that never wraps), and the feed reads only rows of transactions older than
    /// every transaction still running (`pg_snapshot_xmin`): no row of a transaction below that
    /// horizon can appear any more, so a cursor over (tx, seq) skips nothing. The history's rows
    /// written before this migration have no `tx` and are never fed.
    static let webhooks = """
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
            data TEXT NOT NULL
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
            delivery_id TEXT,
            device_id TEXT,
            external_user_id TEXT,
            platform TEXT,
            reason TEXT,
            detail TEXT,
            audience_size BIGINT
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

        -- Added without a default first: the rows already there keep NULL (no rewrite of the history).
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

        -- A send is kept in the delivery's row (sent_at), not in its history: the outbox records it.
        CREATE FUNCTION notibase_webhook_sent() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO webhook_outbox (app_id, type, at, message_id, delivery_id, device_id, external_user_id, platform, detail)
            SELECT m.app_id, 'delivery.sent', NEW.sent_at, m.id, NEW.id, v.id, v.external_user_id, NEW.platform,
                json_build_object('providerId', NEW.provider_id)::text
            FROM messages m LEFT JOIN devices v ON v.seq = NEW.device_seq
            WHERE m.seq = NEW.message_seq AND EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.app_id = m.app_id);
            RETURN NULL;
        END
        $$;

        -- The triggers exist only while the database has an endpoint (notibase_webhook_triggers,
        -- called when an endpoint is made or deleted, and when an app is): a row trigger runs a
        -- function for every delivery sent, and a database without webhooks pays nothing.
        CREATE FUNCTION \(triggersFunction(sentTrigger: """
            CREATE OR REPLACE TRIGGER webhook_delivery_sent AFTER UPDATE OF sent_at ON deliveries FOR EACH ROW
                WHEN (OLD.sent_at IS NULL AND NEW.sent_at IS NOT NULL) EXECUTE FUNCTION notibase_webhook_sent();
            """))
        """

    /// Migration 11, as SQLite's schema 10 (docs/decisions/0037, "Sends in batches"): rows of
    /// several events (`count`, their `data` one JSON object a line; a stream row numbered by its
    /// last event), and `delivery.sent` written by a statement trigger: one `INSERT … SELECT` per
    /// update of `deliveries`, over the rows it changed (its transition tables), one outbox row per
    /// app and time, instead of a PL/pgSQL call and an outbox row per delivery. A trigger with
    /// transition tables cannot name columns (`UPDATE OF sent_at`): it runs after every update of
    /// `deliveries` (claims too), while an endpoint exists, and finds nothing there.
    static let webhookBatches = """
        ALTER TABLE webhook_outbox ADD COLUMN count INTEGER NOT NULL DEFAULT 1, ADD COLUMN events TEXT;
        ALTER TABLE webhook_events ADD COLUMN count INTEGER NOT NULL DEFAULT 1;

        -- Planned at each run (EXECUTE): a plan kept from a first, small update would join the
        -- transition tables, whose sizes it takes as known, by a nested loop ever after.
        CREATE OR REPLACE FUNCTION notibase_webhook_sent() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF NOT EXISTS (SELECT 1 FROM sent_after WHERE sent_at IS NOT NULL) THEN
                RETURN NULL;
            END IF;
            EXECUTE $insert$
                INSERT INTO webhook_outbox (app_id, type, at, count, events)
                SELECT m.app_id, 'delivery.sent', n.sent_at, count(*), string_agg(jsonb_strip_nulls(jsonb_build_object(
                        'appId', m.app_id, 'messageId', m.id, 'deliveryId', n.id, 'deviceId', v.id, 'externalUserId', v.external_user_id,
                        'platform', n.platform, 'details', jsonb_build_object('providerId', n.provider_id)))::text, E'\\n' ORDER BY n.seq)
                FROM sent_after n JOIN sent_before o ON o.seq = n.seq AND o.created_at = n.created_at
                JOIN messages m ON m.seq = n.message_seq LEFT JOIN devices v ON v.seq = n.device_seq
                WHERE o.sent_at IS NULL AND n.sent_at IS NOT NULL AND EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.app_id = m.app_id)
                GROUP BY m.app_id, n.sent_at
            $insert$;
            RETURN NULL;
        END
        $$;

        CREATE OR REPLACE FUNCTION \(triggersFunction(sentTrigger: """
            CREATE TRIGGER webhook_delivery_sent AFTER UPDATE ON deliveries
                REFERENCING OLD TABLE AS sent_before NEW TABLE AS sent_after FOR EACH STATEMENT EXECUTE FUNCTION notibase_webhook_sent();
            """))

        -- A database with an endpoint has the row trigger: the statement trigger replaces it.
        DROP TRIGGER IF EXISTS webhook_delivery_sent ON deliveries;
        SELECT notibase_webhook_triggers();
        """

    /// Migration 12 (docs/decisions/0037, "Sends in the record, on PostgreSQL"): the sends'
    /// trigger goes; the workers' record statement writes the sends' events itself
    /// (``PostgresStore/recordDeliveries(_:messageSeqs:now:)``). A trigger with transition tables
    /// made every update of `deliveries` (the claims' too) keep a copy of its rows before and
    /// after, and planned its join at every record; it took 41 s more of the database's CPU in a
    /// million-device send (docs/benchmarks/2026-12-07-lab-notes.md). The other triggers stay, made and
    /// dropped as before, `webhook_message_created` now the one that says they exist.
    static let webhookSendsInRecord = """
        DROP TRIGGER IF EXISTS webhook_delivery_sent ON deliveries;
        DROP FUNCTION IF EXISTS notibase_webhook_sent();
        CREATE OR REPLACE FUNCTION \(triggersFunction(sentTrigger: nil))
        """

    /// `notibase_webhook_triggers()` after its name (migrations 10 and 11 differ in the sends'
    /// trigger, `sentTrigger`; from migration 12 there is none): it makes the triggers when the
    /// database has an endpoint and none yet, and drops them when it has none left.
    private static func triggersFunction(sentTrigger: String?) -> String {
        let marker = sentTrigger == nil ? ("webhook_message_created", "messages") : ("webhook_delivery_sent", "deliveries")
        return """
        notibase_webhook_triggers() RETURNS VOID LANGUAGE plpgsql AS $$
        BEGIN
            IF EXISTS (SELECT 1 FROM webhook_endpoints) THEN
                IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = '\(marker.0)' AND tgrelid = '\(marker.1)'::regclass) THEN
                    CREATE OR REPLACE TRIGGER webhook_message_created AFTER INSERT ON messages FOR EACH ROW EXECUTE FUNCTION notibase_webhook_message();
                    CREATE OR REPLACE TRIGGER webhook_message_finished AFTER UPDATE OF state ON messages FOR EACH ROW
                        WHEN (NEW.state IN ('completed', 'cancelled', 'failed') AND OLD.state <> NEW.state) EXECUTE FUNCTION notibase_webhook_message();
                    CREATE OR REPLACE TRIGGER webhook_device_registered AFTER INSERT ON devices FOR EACH ROW EXECUTE FUNCTION notibase_webhook_device();
                    CREATE OR REPLACE TRIGGER webhook_device_active AFTER UPDATE OF active ON devices FOR EACH ROW
                        WHEN (OLD.active <> NEW.active) EXECUTE FUNCTION notibase_webhook_device();
        \((sentTrigger ?? "").split(separator: "\n").map { "            " + $0 }.joined(separator: "\n"))
                END IF;
            ELSIF EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = '\(marker.0)' AND tgrelid = '\(marker.1)'::regclass) THEN
                DROP TRIGGER webhook_message_created ON messages;
                DROP TRIGGER webhook_message_finished ON messages;
                DROP TRIGGER webhook_device_registered ON devices;
                DROP TRIGGER webhook_device_active ON devices;\(sentTrigger == nil ? "" : "\n        DROP TRIGGER webhook_delivery_sent ON deliveries;")
            END IF;
        END
        $$;
        """
    }
}
