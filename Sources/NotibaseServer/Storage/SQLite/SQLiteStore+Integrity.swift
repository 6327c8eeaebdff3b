extension SQLiteStore {
    /// Every way the stored data can contradict itself, with the query that finds it. Each query
    /// returns one row per problem: what it is about, in words an operator can look up.
    private static let integrityChecks: [(problem: String, sql: String)] = [
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
        ("a delivery in a final state is still due",
         "SELECT id FROM deliveries WHERE due_at IS NOT NULL AND state NOT IN ('queued', 'retrying') LIMIT 20"),
        ("a delivery waiting to be sent has no device",
         "SELECT id FROM deliveries WHERE device_seq IS NULL AND state IN ('queued', 'retrying') AND due_at IS NOT NULL LIMIT 20"),
        ("a finished message still has deliveries to send",
         """
         SELECT m.id FROM messages m WHERE m.state IN ('completed', 'failed')
         AND EXISTS (SELECT 1 FROM deliveries d WHERE d.message_seq = m.seq AND d.due_at IS NOT NULL) LIMIT 20
         """),
    ]

    /// What is wrong with the stored data: SQLite's own check of the file, every foreign key, and
    /// the rules no constraint can state (``integrityChecks``). Empty when all is well. Reads only.
    func integrityProblems() throws -> [String] {
        try Self.integrityProblems(of: connection)
    }

    /// ``integrityProblems()`` on any connection to a Notibase database (a test's own, say).
    static func integrityProblems(of connection: SQLiteConnection) throws -> [String] {
        var problems: [String] = []
        for line in try connection.query("PRAGMA quick_check", [], { $0.text(0) }) where line != "ok" {
            problems.append("database file: \(line)")
        }
        let broken = try connection.query("PRAGMA foreign_key_check") { row in
            "\(row.text(0)) row \(row.optionalInt(1).map(String.init) ?? "?") points at a missing \(row.text(2)) row"
        }
        problems += broken.prefix(50)
        for check in integrityChecks {
            let rows = try connection.query(check.sql) { $0.text(0) }
            if !rows.isEmpty { problems.append("\(check.problem): \(rows.joined(separator: ", "))") }
        }
        return problems
    }
}
