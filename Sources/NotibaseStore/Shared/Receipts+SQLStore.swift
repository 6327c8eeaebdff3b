package import NotibaseCore
package import NotibaseDomain

extension ReceiptsStore where Self: SQLStore, Statements: SQLStatements {
    /// Applies a receipt as `decision` says, reading the facts it asks for and writing what it
    /// returns, in one transaction. The delivery's row is locked where the backend locks rows, so
    /// two nodes count alike. A delivery the receipt ended may complete its message, inside the
    /// transaction or after its commit as the backend says (``SQLStore/completing(now:_:)``).
    package func applyReceipt(appID: String, _ receipt: Receipt, detail: DeliveryEventDetail, limit: Int, now: Int, decision: some ReceiptDeciding) async throws -> ReceiptResult {
        try await completing(now: now) { sql in
            let (db, p) = (sql.executor, sql.executor.p)
            var ended: Set<Int> = []
            let found = try db.first(
                """
                SELECT d.seq, d.state, m.id, m.seq, d.created_at FROM deliveries d JOIN messages m ON m.seq = d.message_seq
                WHERE d.id = \(p(1)) AND m.app_id = \(p(2))\(db.dialect.lockingRows(of: "d"))
                """, [.text(receipt.deliveryID), .text(appID)]) {
                (ReceiptTarget(seq: $0.int(0), state: DeliveryState(rawValue: $0.text(1)), messageID: $0.text(2), messageSeq: $0.int(3)), $0.int(4))
            }
            let key = DeliveryKey(db.dialect, createdAt: found?.1 ?? 0)
            let result = try decision.apply(
                ReceiptFacts(receipt: receipt, detail: detail, limit: limit, now: now, delivery: found?.0),
                alreadyStored: { try db.first("SELECT 1 FROM receipts WHERE app_id = \(p(1)) AND id = \(p(2))", [.text(appID), .text(receipt.id)]) { _ in true } != nil },
                receiptsStored: { try db.count("SELECT count(*) FROM receipts WHERE delivery_seq = \(p(1))\(key.and("delivery_created_at", p(2)))", [.int($0)] + key.values) },
                insert: { row in
                    try db.write(
                        """
                        INSERT INTO receipts (app_id, id, delivery_seq, event, received_at\(key.column)) VALUES (\(p(1)), \(p(2)), \(p(3)), \(p(4)), \(p(5))\(key.mark(p(6))))
                        ON CONFLICT DO NOTHING
                        """, [.text(appID), .text(row.id), .int(row.deliverySeq), .text(row.event), .int(row.receivedAt)] + key.values) == 1
                },
                write: { change in
                    _ = try db.write(
                        "INSERT INTO delivery_events (delivery_seq, event, at, detail\(key.column)) VALUES (\(p(1)), \(p(2)), \(p(3)), \(p(4))\(key.mark(p(5))))",
                        [.int(change.deliverySeq), .text(change.event), .int(change.at), .text(change.detail)] + key.values)
                    guard let state = change.state else { return }
                    _ = try db.write(
                        "UPDATE deliveries SET state = \(p(1)), due_at = NULL, updated_at = \(p(2)) WHERE seq = \(p(3))\(key.and("created_at", p(4)))",
                        [.text(state.rawValue), .int(change.now), .int(change.deliverySeq)] + key.values)
                    ended.insert(change.messageSeq)
                })
            return (result, ended)
        }
    }
}

/// A delivery's partition key where its history is kept in partitions by it (PostgreSQL's weeks,
/// keyed by the delivery's `created_at`): the statements name it, so each stays in its week.
/// SQLite's tables have no such column, and its statements name nothing.
private struct DeliveryKey {
    var values: [SQLParameter]

    init(_ dialect: SQLDialect, createdAt: Int) {
        values = dialect == .postgres ? [.int(createdAt)] : []
    }

    /// The history's column, after the others of an insert.
    var column: String { values.isEmpty ? "" : ", delivery_created_at" }
    /// Its value's `mark`, after the others of an insert.
    func mark(_ mark: String) -> String { values.isEmpty ? "" : ", \(mark)" }
    /// A condition on `column`, after the others.
    func and(_ column: String, _ mark: String) -> String { values.isEmpty ? "" : " AND \(column) = \(mark)" }
}
