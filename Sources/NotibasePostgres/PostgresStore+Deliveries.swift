import Foundation
package import NotibaseCore
package import NotibaseDomain
import NotibaseStore

extension PostgresStore {
    /// Applies a receipt as `decision` says, reading the facts it asks for and writing what it
    /// returns, in one transaction. The delivery's row is locked, so two nodes count alike.
    package func applyReceipt(appID: String, _ receipt: Receipt, detail: DeliveryEventDetail, limit: Int, now: Int, decision: some ReceiptDeciding) async throws -> ReceiptResult {
        let (result, ended) = try await pool.transaction { connection in
            // The message whose delivery the receipt ended, and when: completed after the commit.
            var ended: (message: Int, at: Int)?
            let found = try connection.query(
                """
                SELECT d.seq, d.state, m.id, m.seq, d.created_at FROM deliveries d JOIN messages m ON m.seq = d.message_seq
                WHERE d.id = $1 AND m.app_id = $2 FOR UPDATE OF d
                """, [.text(receipt.deliveryID), .text(appID)]).first {
                (ReceiptTarget(seq: $0.int(0), state: DeliveryState(rawValue: $0.text(1)), messageID: $0.text(2), messageSeq: $0.int(3)), $0.int(4))
            }
            // The delivery's partition key: every statement below stays in its week.
            let createdAt = found?.1 ?? 0
            let result = try decision.apply(
                ReceiptFacts(receipt: receipt, detail: detail, limit: limit, now: now, delivery: found?.0),
                alreadyStored: { try connection.query("SELECT 1 FROM receipts WHERE app_id = $1 AND id = $2", [.text(appID), .text(receipt.id)]).count > 0 },
                receiptsStored: {
                    try connection.query(
                        "SELECT count(*) FROM receipts WHERE delivery_seq = $1 AND delivery_created_at = $2", [.int($0), .int(createdAt)]).first { $0.int(0) } ?? 0
                },
                insert: { row in
                    try connection.run(
                        """
                        INSERT INTO receipts (app_id, id, delivery_seq, delivery_created_at, event, received_at) VALUES ($1, $2, $3, $4, $5, $6)
                        ON CONFLICT DO NOTHING
                        """, [.text(appID), .text(row.id), .int(row.deliverySeq), .int(createdAt), .text(row.event), .int(row.receivedAt)]) == 1
                },
                write: { change in
                    try connection.run(
                        "INSERT INTO delivery_events (delivery_seq, delivery_created_at, event, at, detail) VALUES ($1, $2, $3, $4, $5)",
                        [.int(change.deliverySeq), .int(createdAt), .text(change.event), .int(change.at), .text(change.detail)])
                    guard let state = change.state else { return }
                    try connection.run(
                        "UPDATE deliveries SET state = $1, due_at = NULL, updated_at = $2 WHERE seq = $3 AND created_at = $4",
                        [.text(state.rawValue), .int(change.now), .int(change.deliverySeq), .int(createdAt)])
                    ended = (change.messageSeq, change.now)
                })
            return (result, ended)
        }
        if let ended { await completeAfterCommit(messageSeqs: [ended.message], now: ended.at) }
        return result
    }
}
