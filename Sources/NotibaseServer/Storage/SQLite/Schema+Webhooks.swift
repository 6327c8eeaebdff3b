extension Schema {
    /// SQLite's migration 9: webhook endpoints, the event stream they read, the outbox the triggers
    /// fill in the same transaction as a message's or a device's change, the feed's place in the
    /// delivery history, and the attempts log (docs/decisions/0037). The triggers write only for
    /// an app with an endpoint. An outbox row records the delivery history's last number at its
    /// write (`after_event`): one writer commits in that order, so the feed merges by it.
    static let webhooks = """
        CREATE TABLE webhook_endpoints (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
            url TEXT NOT NULL,
            types TEXT,
            description TEXT,
            secret BLOB NOT NULL,
            previous_secret BLOB,
            previous_secret_until INTEGER,
            enabled INTEGER NOT NULL DEFAULT 1,
            disabled_reason TEXT,
            cursor INTEGER NOT NULL DEFAULT 0,
            batch_id TEXT,
            batch_last INTEGER,
            batch_attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_at INTEGER,
            failing_since INTEGER,
            lease_owner TEXT,
            lease_until INTEGER,
            revision INTEGER NOT NULL DEFAULT 0,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL
        );
        CREATE INDEX webhook_endpoints_app ON webhook_endpoints(app_id, seq);

        CREATE TABLE webhook_events (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
            endpoint_id TEXT REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
            type TEXT NOT NULL,
            at INTEGER NOT NULL,
            data TEXT NOT NULL
        );
        CREATE INDEX webhook_events_app ON webhook_events(app_id, seq);
        CREATE INDEX webhook_events_at ON webhook_events(at);
        CREATE INDEX webhook_events_endpoint ON webhook_events(endpoint_id) WHERE endpoint_id IS NOT NULL;

        CREATE TABLE webhook_outbox (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            after_event INTEGER NOT NULL,
            app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
            endpoint_id TEXT REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
            type TEXT NOT NULL,
            at INTEGER NOT NULL,
            message_id TEXT,
            delivery_id TEXT,
            device_id TEXT,
            external_user_id TEXT,
            platform TEXT,
            reason TEXT,
            detail TEXT,
            audience_size INTEGER
        );
        CREATE INDEX webhook_outbox_endpoint ON webhook_outbox(endpoint_id) WHERE endpoint_id IS NOT NULL;

        CREATE TABLE webhook_attempts (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
            batch_id TEXT NOT NULL,
            events INTEGER NOT NULL,
            at INTEGER NOT NULL,
            outcome TEXT NOT NULL,
            status INTEGER,
            latency_ms INTEGER NOT NULL,
            answer TEXT NOT NULL,
            next_retry_at INTEGER
        );
        CREATE INDEX webhook_attempts_endpoint ON webhook_attempts(endpoint_id, seq);

        CREATE TABLE webhook_feed (id INTEGER PRIMARY KEY CHECK (id = 1), event_order INTEGER NOT NULL, event_seq INTEGER NOT NULL);
        INSERT INTO webhook_feed (id, event_order, event_seq)
            SELECT 1, coalesce(max(seq), 0), coalesce(max(seq), 0) FROM delivery_events;

        CREATE TRIGGER webhook_message_created AFTER INSERT ON messages
        WHEN EXISTS (SELECT 1 FROM webhook_endpoints WHERE app_id = NEW.app_id)
        BEGIN
            INSERT INTO webhook_outbox (after_event, app_id, type, at, message_id, audience_size)
            VALUES (coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'delivery_events'), 0), NEW.app_id, 'message.created', NEW.created_at,
                NEW.id, NEW.audience_size);
            INSERT INTO webhook_outbox (after_event, app_id, type, at, message_id, reason, audience_size)
            SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'delivery_events'), 0), NEW.app_id, 'message.' || NEW.state,
                coalesce(NEW.finished_at, NEW.created_at), NEW.id, NEW.failure_reason, NEW.audience_size
            WHERE NEW.state IN ('completed', 'cancelled', 'failed');
        END;

        CREATE TRIGGER webhook_message_finished AFTER UPDATE OF state ON messages
        WHEN NEW.state IN ('completed', 'cancelled', 'failed') AND OLD.state <> NEW.state
            AND EXISTS (SELECT 1 FROM webhook_endpoints WHERE app_id = NEW.app_id)
        BEGIN
            INSERT INTO webhook_outbox (after_event, app_id, type, at, message_id, reason, audience_size)
            VALUES (coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'delivery_events'), 0), NEW.app_id, 'message.' || NEW.state,
                coalesce(NEW.finished_at, NEW.created_at), NEW.id, NEW.failure_reason, NEW.audience_size);
        END;

        CREATE TRIGGER webhook_device_registered AFTER INSERT ON devices
        WHEN EXISTS (SELECT 1 FROM webhook_endpoints WHERE app_id = NEW.app_id)
        BEGIN
            INSERT INTO webhook_outbox (after_event, app_id, type, at, device_id, external_user_id, platform)
            VALUES (coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'delivery_events'), 0), NEW.app_id, 'device.registered', NEW.created_at,
                NEW.id, NEW.external_user_id, NEW.platform);
        END;

        CREATE TRIGGER webhook_device_active AFTER UPDATE OF active ON devices
        WHEN OLD.active <> NEW.active AND EXISTS (SELECT 1 FROM webhook_endpoints WHERE app_id = NEW.app_id)
        BEGIN
            INSERT INTO webhook_outbox (after_event, app_id, type, at, device_id, external_user_id, platform, reason)
            VALUES (coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'delivery_events'), 0), NEW.app_id,
                CASE NEW.active WHEN 1 THEN 'device.registered' ELSE 'device.deactivated' END,
                CASE NEW.active WHEN 1 THEN NEW.updated_at ELSE coalesce(NEW.deactivated_at, NEW.updated_at) END,
                NEW.id, NEW.external_user_id, NEW.platform, CASE NEW.active WHEN 1 THEN NULL ELSE NEW.deactivated_reason END);
        END;

        -- A send is kept in the delivery's row (sent_at), not in its history: the outbox records it.
        CREATE TRIGGER webhook_delivery_sent AFTER UPDATE OF sent_at ON deliveries
        WHEN OLD.sent_at IS NULL AND NEW.sent_at IS NOT NULL
            AND EXISTS (SELECT 1 FROM webhook_endpoints e JOIN messages m ON m.app_id = e.app_id WHERE m.seq = NEW.message_seq)
        BEGIN
            INSERT INTO webhook_outbox (after_event, app_id, type, at, message_id, delivery_id, device_id, external_user_id, platform, detail)
            SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'delivery_events'), 0), m.app_id, 'delivery.sent', NEW.sent_at, m.id, NEW.id,
                v.id, v.external_user_id, NEW.platform, json_object('providerId', NEW.provider_id)
            FROM messages m LEFT JOIN devices v ON v.seq = NEW.device_seq WHERE m.seq = NEW.message_seq;
        END;
        """

    /// SQLite's migration 10 (docs/decisions/0037, "Sends in batches"): an outbox row and a stream
    /// row may hold several events of one type and time, `count` of them, their `data` one JSON
    /// object a line (the outbox's in `events`); a stream row's number is its last event's. A
    /// send's `delivery.sent` events are written by the transaction that records the batch
    /// (`recordDeliveries`), one row per app, instead of a row trigger writing one row per
    /// delivery.
    static let webhookBatches = """
        ALTER TABLE webhook_outbox ADD COLUMN count INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE webhook_outbox ADD COLUMN events TEXT;
        ALTER TABLE webhook_events ADD COLUMN count INTEGER NOT NULL DEFAULT 1;
        DROP TRIGGER webhook_delivery_sent;
        """
}
