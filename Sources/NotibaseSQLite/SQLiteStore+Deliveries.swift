import Foundation
package import NotibaseCore
package import NotibaseDomain
import NotibaseStore

extension SQLiteStore {

    /// Applies a receipt as `decision` says, reading the facts it asks for and writing what it
    /// returns, in one transaction.
    package func applyReceipt(appID: String, _ receipt: Receipt, detail: DeliveryEventDetail, limit: Int, now: Int, decision: some ReceiptDeciding) throws -> ReceiptResult {
        try connection.transaction {
            let delivery = try connection.first(
                "SELECT d.seq, d.state, m.id, m.seq FROM deliveries d JOIN messages m ON m.seq = d.message_seq WHERE d.id = ? AND m.app_id = ?",
                [.text(receipt.deliveryID), .text(appID)]) { ReceiptTarget(seq: $0.int(0), state: DeliveryState(rawValue: $0.text(1)), messageID: $0.text(2), messageSeq: $0.int(3)) }
            return try decision.apply(
                ReceiptFacts(receipt: receipt, detail: detail, limit: limit, now: now, delivery: delivery),
                alreadyStored: { try connection.first("SELECT 1 FROM receipts WHERE app_id = ? AND id = ?", [.text(appID), .text(receipt.id)], { _ in true }) != nil },
                receiptsStored: { try connection.first("SELECT count(*) FROM receipts WHERE delivery_seq = ?", [.int($0)]) { $0.int(0) } ?? 0 },
                insert: { row in
                    try connection.run(
                        "INSERT OR IGNORE INTO receipts (app_id, id, delivery_seq, event, received_at) VALUES (?, ?, ?, ?, ?)",
                        [.text(appID), .text(row.id), .int(row.deliverySeq), .text(row.event), .int(row.receivedAt)]) == 1
                },
                write: { change in
                    try connection.run(
                        "INSERT INTO delivery_events (delivery_seq, event, at, detail) VALUES (?, ?, ?, ?)",
                        [.int(change.deliverySeq), .text(change.event), .int(change.at), .text(change.detail)])
                    guard let state = change.state else { return }
                    try connection.run("UPDATE deliveries SET state = ?, due_at = NULL, updated_at = ? WHERE seq = ?", [.text(state.rawValue), .int(change.now), .int(change.deliverySeq)])
                    try completeIfFinished(messageSeqs: [change.messageSeq], now: change.now)
                })
        }
    }
}
