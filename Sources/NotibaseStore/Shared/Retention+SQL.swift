import NotibaseDomain
/// Retention's batches and the stored bytes they give back: the statements both backends run
/// alike (``SQLExecutor``).
extension SQLExecutor {
    /// Removes a batch of finished history: `deliveries`, the backend's `DELETE` of up to `limit`
    /// (parameter 2) deliveries of messages that finished before `finishedBefore` (parameter 1),
    /// their events and receipts cascading; then up to `limit` such messages left without
    /// deliveries, their bytes given back to their apps. Returns how many rows it removed; 0 when
    /// nothing is left. Small transactions, so the API and the workers go on between them.
    package func purgeFinishedMessages(before finishedBefore: Int, limit: Int, deliveries: String) throws -> Int {
        let removedDeliveries = try write(deliveries, [.int(finishedBefore), .int(limit)])
        let removed = try rows(
            """
            DELETE FROM messages WHERE seq IN (
                SELECT m.seq FROM messages m WHERE m.state IN (\(Lifecycle.finishedSQL)) AND m.finished_at < \(p(1))
                AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.message_seq = m.seq) LIMIT \(p(2)))
            RETURNING app_id, \(dialect.byteLength("content")) + \(dialect.byteLength("audience"))
            """, [.int(finishedBefore), .int(limit)]) { (app: $0.text(0), bytes: $0.int(1)) }
        for (app, bytes) in StoredBytes.byApp(removed) {
            try giveBack(storedBytes: bytes, appID: app)
        }
        return removedDeliveries + removed.count
    }

    /// Takes `bytes` from the app's count of stored bytes, never below 0.
    package func giveBack(storedBytes bytes: Int, appID: String) throws {
        _ = try write("UPDATE apps SET stored_bytes = \(dialect.greatest("0", "stored_bytes - \(p(1))")) WHERE id = \(p(2))", [.int(bytes), .text(appID)])
    }
}
