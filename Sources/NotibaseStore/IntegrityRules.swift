import NotibaseDomain
/// The rules about stored data that no constraint can state, as queries both backends run (the
/// storage integrity check, `notibase serve --check`, the end of every test).
package enum IntegrityRules {
    /// Every way the stored data can contradict itself, with the query that finds it. Each query
    /// returns one row per problem: what it is about, in words an operator can look up.
    package static let checks: [(problem: String, sql: String)] = [
        ("a delivery points at a device of another app",
         """
         SELECT d.id FROM deliveries d JOIN messages m ON m.seq = d.message_seq JOIN devices v ON v.seq = d.device_seq
         WHERE v.app_id <> m.app_id LIMIT 20
         """),
        ("a delivery is older than its device (the device number was reused)",
         """
         SELECT d.id FROM deliveries d JOIN devices v ON v.seq = d.device_seq WHERE v.created_at > d.created_at LIMIT 20
         """),
        ("a delivery is older than its message (the message number was reused)",
         """
         SELECT d.id FROM deliveries d JOIN messages m ON m.seq = d.message_seq WHERE m.created_at > d.created_at LIMIT 20
         """),
        ("a receipt was recorded for another app's delivery",
         """
         SELECT r.id FROM receipts r JOIN deliveries d ON d.seq = r.delivery_seq JOIN messages m ON m.seq = d.message_seq
         WHERE m.app_id <> r.app_id LIMIT 20
         """),
        ("an idempotency key names another app's message",
         """
         SELECT k.key FROM idempotency_keys k JOIN messages m ON m.id = k.message_id WHERE m.app_id <> k.app_id LIMIT 20
         """),
        ("a Live Activity token is kept for a device of another app",
         """
         SELECT t.activity_id FROM live_activity_tokens t JOIN devices v ON v.seq = t.device_seq WHERE v.app_id <> t.app_id
         UNION ALL SELECT s.attributes_type FROM live_activity_start_tokens s JOIN devices v ON v.seq = s.device_seq WHERE v.app_id <> s.app_id LIMIT 20
         """),
        ("a delivery in a final state is still due",
         "SELECT id FROM deliveries WHERE due_at IS NOT NULL AND state NOT IN (\(Lifecycle.pendingSQL)) LIMIT 20"),
        ("a delivery waiting to be sent has no device",
         "SELECT id FROM deliveries WHERE device_seq IS NULL AND state IN (\(Lifecycle.pendingSQL)) AND due_at IS NOT NULL LIMIT 20"),
        ("a finished message still has deliveries to send",
         """
         SELECT m.id FROM messages m WHERE m.state IN ('completed', 'failed')
         AND EXISTS (SELECT 1 FROM deliveries d WHERE d.message_seq = m.seq AND d.due_at IS NOT NULL) LIMIT 20
         """),
    ]
}
