import Foundation
import NotibaseCore

extension SQLiteStore {

    /// Applies a receipt: once per receipt ID; only for a delivery of the same app (and message,
    /// when the receipt names one); at most `limit` receipts per delivery.
    func applyReceipt(appID: String, _ receipt: Receipt, detail: DeliveryEventDetail, limit: Int, now: Int) throws -> ReceiptResult {
        try connection.transaction {
            let found = try connection.first(
                "SELECT d.seq, d.state, m.id, m.seq FROM deliveries d JOIN messages m ON m.seq = d.message_seq WHERE d.id = ? AND m.app_id = ?",
                [.text(receipt.deliveryID), .text(appID)]) { ($0.int(0), $0.text(1), $0.text(2), $0.int(3)) }
            guard let (seq, stateText, messageID, messageSeq) = found, receipt.messageID == nil || receipt.messageID == messageID else {
                return .unknownDelivery
            }
            if try connection.first("SELECT 1 FROM receipts WHERE app_id = ? AND id = ?", [.text(appID), .text(receipt.id)], { _ in true }) != nil {
                return .duplicate(deliveryID: receipt.deliveryID)
            }
            let count = try connection.first("SELECT count(*) FROM receipts WHERE delivery_seq = ?", [.int(seq)]) { $0.int(0) } ?? 0
            guard count < limit else { return .limitReached }
            let inserted = try connection.run(
                "INSERT OR IGNORE INTO receipts (app_id, id, delivery_seq, event, received_at) VALUES (?, ?, ?, ?, ?)",
                [.text(appID), .text(receipt.id), .int(seq), .text(receipt.event.rawValue), .int(now)])
            guard inserted == 1 else { return .duplicate(deliveryID: receipt.deliveryID) }
            try connection.run(
                "INSERT INTO delivery_events (delivery_seq, event, at, detail) VALUES (?, ?, ?, ?)",
                [.int(seq), .text(receipt.event.rawValue), .int(Int(receipt.occurredAt.timeIntervalSince1970 * 1000)), .text(detail.stored)])
            let current = DeliveryState(rawValue: stateText) ?? .queued
            let reported = DeliveryState(rawValue: receipt.event.rawValue) ?? .rendered
            if Lifecycle.receipt(reported, advances: current) {
                // The device has it: whatever the queue thought, it is delivered.
                try connection.run("UPDATE deliveries SET state = ?, due_at = NULL, updated_at = ? WHERE seq = ?", [.text(reported.rawValue), .int(now), .int(seq)])
                try completeIfFinished(messageSeqs: [messageSeq], now: now)
            }
            return .accepted(deliveryID: receipt.deliveryID)
        }
    }

}

/// The delivery log, read on a reader's connection (or the writer's, inside its transactions: ``SQLiteReads``).
extension SQLiteReads {
    /// A message's deliveries after `afterSeq`, with their histories.
    func deliveries(messageSeq: Int, state: DeliveryState?, afterSeq: Int, limit: Int) throws -> [DeliveryRecord] {
        var sql = Rows.deliveryQuery + " WHERE d.message_seq = ? AND d.seq > ?"
        var values: [SQLValue] = [.int(messageSeq), .int(afterSeq)]
        if let state { sql += " AND d.state = ?"; values.append(.text(state.rawValue)) }
        return try withEvents(connection.query(sql + " ORDER BY d.seq LIMIT ?", values + [.int(limit)], Rows.delivery))
    }

    /// A device's deliveries after `afterSeq`, with their histories.
    func deliveries(appID: String, deviceID: String, state: DeliveryState?, afterSeq: Int, limit: Int) throws -> [DeliveryRecord]? {
        guard let deviceSeq = try connection.first("SELECT seq FROM devices WHERE id = ? AND app_id = ?", [.text(deviceID), .text(appID)], { $0.int(0) }) else {
            return nil
        }
        var sql = Rows.deliveryQuery + " WHERE d.device_seq = ? AND d.seq > ?"
        var values: [SQLValue] = [.int(deviceSeq), .int(afterSeq)]
        if let state { sql += " AND d.state = ?"; values.append(.text(state.rawValue)) }
        return try withEvents(connection.query(sql + " ORDER BY d.seq LIMIT ?", values + [.int(limit)], Rows.delivery))
    }

    /// One delivery of the app, with its history.
    func delivery(appID: String, id: String) throws -> DeliveryRecord? {
        try connection.first(Rows.deliveryQuery + " WHERE d.id = ? AND m.app_id = ?", [.text(id), .text(appID)], Rows.delivery)
            .map { try withEvents([$0])[0] }
    }

    /// The deliveries with their histories, read with one query for the whole page.
    fileprivate func withEvents(_ deliveries: [DeliveryRecord]) throws -> [DeliveryRecord] {
        guard !deliveries.isEmpty else { return [] }
        var events: [Int: [DeliveryEventRecord]] = [:]
        let rows = try connection.query(
            "SELECT delivery_seq, event, at, detail FROM delivery_events WHERE delivery_seq IN (SELECT value FROM json_each(?)) ORDER BY delivery_seq, seq",
            [.text(JSON.text(deliveries.map(\.seq)))]) { ($0.int(0), Rows.event($0, from: 1)) }
        for (seq, event) in rows { events[seq, default: []].append(event) }
        return deliveries.map { delivery in
            var delivery = delivery
            delivery.events = events[delivery.seq] ?? []
            return delivery
        }
    }
}
