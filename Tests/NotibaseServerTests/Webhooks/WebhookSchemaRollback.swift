/// Undoes the migrations after the credentials' health (the webhooks': SQLite 9 and 10, PostgreSQL 10
/// to 12; the delivery logs' order: SQLite 12, PostgreSQL 14), for a test that takes a database back
/// to an older schema to watch it move on.
enum WebhookSchemaRollback {
    static let sqlite = """
        DROP INDEX deliveries_message_seq;
        DROP TRIGGER webhook_message_created; DROP TRIGGER webhook_message_finished; DROP TRIGGER webhook_device_registered;
        DROP TRIGGER webhook_device_active; DROP TRIGGER IF EXISTS webhook_delivery_sent;
        DROP TABLE webhook_feed; DROP TABLE webhook_attempts; DROP TABLE webhook_outbox; DROP TABLE webhook_events; DROP TABLE webhook_endpoints;
        """

    static let postgres = """
        DROP INDEX deliveries_message_seq, deliveries_device_seq; CREATE INDEX deliveries_device ON deliveries(device_seq);
        DROP TRIGGER IF EXISTS webhook_message_created ON messages; DROP TRIGGER IF EXISTS webhook_message_finished ON messages;
        DROP TRIGGER IF EXISTS webhook_device_registered ON devices; DROP TRIGGER IF EXISTS webhook_device_active ON devices;
        DROP TRIGGER IF EXISTS webhook_delivery_sent ON deliveries;
        DROP FUNCTION notibase_webhook_triggers(); DROP FUNCTION notibase_webhook_message(); DROP FUNCTION notibase_webhook_device(); DROP FUNCTION IF EXISTS notibase_webhook_sent();
        DROP TABLE webhook_feed, webhook_attempts, webhook_outbox, webhook_events, webhook_endpoints;
        ALTER TABLE delivery_events DROP COLUMN tx;
        DELETE FROM notibase_schema WHERE version IN (10, 11, 12, 14);
        """
}
