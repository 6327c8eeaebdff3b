import NotibaseStore
extension Schema {
    /// SQLite's migration 7: what came after 0.1.0 (schema 6), which no release has shipped yet,
    /// as one step that makes the schema as it is now.
    ///
    /// - Each credential's health (ok, failing or untested: its last success, its last failure and
    ///   why) and what the provider said when last asked (`test_result`, JSON, docs/decisions/0046).
    /// - Each device's APNs environment (`sandbox` or `production`) as its registration said; NULL
    ///   for a device that did not say, which is sent to its app's environment.
    /// - The digest of what the request that stored an idempotency key asked for (a key reused
    ///   for another request is refused); a key stored before has none and replays as it did.
    /// - A message's delivery log read a page at a time in `seq` order, either way, without sorting
    ///   all of its deliveries (`deliveries_message` is by state and platform first).
    /// - Webhooks (docs/decisions/0037): endpoints, the event stream they read, the outbox the
    ///   triggers fill in the same transaction as a message's or a device's change (and the
    ///   workers' record, with its sends' `delivery.sent` rows), the feed's place in the delivery
    ///   history and the attempts log. A stream or outbox row holds `count` events of one type and
    ///   time: one event's JSON `data`, or a batch's sends as lines (``WebhookSendLines``, the
    ///   outbox's in `events`); a stream row's number is its last event's. The triggers write only
    ///   for an app with an endpoint. An outbox row records the delivery history's last number at
    ///   its write (`after_event`): one writer commits in that order, so the feed merges by it.
    /// - The Live Activity registry (issue 46): each device's push-to-start token per attributes
    ///   type (with its APNs environment and the `ContentState`'s schema), and each activity's
    ///   update token and state (`active`, `ended`, `dismissed`) per device; both go with their
    ///   device and app.
    package static let sinceRelease = """
        ALTER TABLE credentials ADD COLUMN health_state TEXT NOT NULL DEFAULT 'untested';
        ALTER TABLE credentials ADD COLUMN last_success_at INTEGER;
        ALTER TABLE credentials ADD COLUMN last_failure_at INTEGER;
        ALTER TABLE credentials ADD COLUMN last_failure_reason TEXT;
        ALTER TABLE credentials ADD COLUMN test_result TEXT;
        ALTER TABLE devices ADD COLUMN apns_environment TEXT;
        ALTER TABLE idempotency_keys ADD COLUMN request_digest TEXT;
        CREATE INDEX deliveries_message_seq ON deliveries(message_seq, seq);

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
            data TEXT NOT NULL,
            count INTEGER NOT NULL DEFAULT 1
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
            device_id TEXT,
            external_user_id TEXT,
            platform TEXT,
            reason TEXT,
            audience_size INTEGER,
            count INTEGER NOT NULL DEFAULT 1,
            events TEXT
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

        CREATE TABLE live_activity_start_tokens (
            device_seq INTEGER NOT NULL REFERENCES devices(seq) ON DELETE CASCADE,
            app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
            attributes_type TEXT NOT NULL,
            token TEXT NOT NULL,
            apns_environment TEXT,
            content_state_schema TEXT,
            updated_at INTEGER NOT NULL,
            PRIMARY KEY (device_seq, attributes_type)
        );
        CREATE INDEX live_activity_start_tokens_app ON live_activity_start_tokens(app_id, attributes_type);

        CREATE TABLE live_activity_tokens (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
            activity_id TEXT NOT NULL,
            device_seq INTEGER NOT NULL REFERENCES devices(seq) ON DELETE CASCADE,
            attributes_type TEXT,
            token TEXT,
            state TEXT NOT NULL,
            updated_at INTEGER NOT NULL,
            UNIQUE (app_id, activity_id, device_seq)
        );
        CREATE INDEX live_activity_tokens_activity ON live_activity_tokens(app_id, activity_id, seq);
        CREATE INDEX live_activity_tokens_device ON live_activity_tokens(device_seq);

        CREATE TABLE webhook_feed (id INTEGER PRIMARY KEY CHECK (id = 1), event_seq INTEGER NOT NULL);
        INSERT INTO webhook_feed (id, event_seq) SELECT 1, coalesce(max(seq), 0) FROM delivery_events;

        CREATE TRIGGER webhook_message_created AFTER INSERT ON messages
        WHEN EXISTS (SELECT 1 FROM webhook_endpoints WHERE app_id = NEW.app_id)
        BEGIN
            INSERT INTO webhook_outbox (after_event, app_id, type, at, message_id, audience_size)
            VALUES (\(WebhookSQL.afterEvent), NEW.app_id, 'message.created', NEW.created_at, NEW.id, NEW.audience_size);
            INSERT INTO webhook_outbox (after_event, app_id, type, at, message_id, reason, audience_size)
            SELECT \(WebhookSQL.afterEvent), NEW.app_id, 'message.' || NEW.state, coalesce(NEW.finished_at, NEW.created_at), NEW.id, NEW.failure_reason,
                NEW.audience_size
            WHERE NEW.state IN ('completed', 'cancelled', 'failed');
        END;

        CREATE TRIGGER webhook_message_finished AFTER UPDATE OF state ON messages
        WHEN NEW.state IN ('completed', 'cancelled', 'failed') AND OLD.state <> NEW.state
            AND EXISTS (SELECT 1 FROM webhook_endpoints WHERE app_id = NEW.app_id)
        BEGIN
            INSERT INTO webhook_outbox (after_event, app_id, type, at, message_id, reason, audience_size)
            VALUES (\(WebhookSQL.afterEvent), NEW.app_id, 'message.' || NEW.state, coalesce(NEW.finished_at, NEW.created_at), NEW.id, NEW.failure_reason,
                NEW.audience_size);
        END;

        CREATE TRIGGER webhook_device_registered AFTER INSERT ON devices
        WHEN EXISTS (SELECT 1 FROM webhook_endpoints WHERE app_id = NEW.app_id)
        BEGIN
            INSERT INTO webhook_outbox (after_event, app_id, type, at, device_id, external_user_id, platform)
            VALUES (\(WebhookSQL.afterEvent), NEW.app_id, 'device.registered', NEW.created_at, NEW.id, NEW.external_user_id, NEW.platform);
        END;

        CREATE TRIGGER webhook_device_active AFTER UPDATE OF active ON devices
        WHEN OLD.active <> NEW.active AND EXISTS (SELECT 1 FROM webhook_endpoints WHERE app_id = NEW.app_id)
        BEGIN
            INSERT INTO webhook_outbox (after_event, app_id, type, at, device_id, external_user_id, platform, reason)
            VALUES (\(WebhookSQL.afterEvent), NEW.app_id,
                CASE NEW.active WHEN 1 THEN 'device.registered' ELSE 'device.deactivated' END,
                CASE NEW.active WHEN 1 THEN NEW.updated_at ELSE coalesce(NEW.deactivated_at, NEW.updated_at) END,
                NEW.id, NEW.external_user_id, NEW.platform, CASE NEW.active WHEN 1 THEN NULL ELSE NEW.deactivated_reason END);
        END;
        """
}
