import Foundation
import NotibaseCore

extension SQLiteStore {

    /// Applies a receipt as `decision` says, reading the facts it asks for and writing what it
    /// returns, in one transaction.
    func applyReceipt(appID: String, _ receipt: Receipt, detail: DeliveryEventDetail, limit: Int, now: Int, decision: some ReceiptDeciding) throws -> ReceiptResult {
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

/// The delivery log, read on a reader's connection (or the writer's, inside its transactions: ``SQLiteReads``).
extension SQLiteReads {
    /// A page of a message's deliveries, with their histories: through `deliveries_message_seq`
    /// `(message_seq, seq)` in either order.
    func deliveries(messageSeq: Int, state: DeliveryState?, page: SeqPage) throws -> [DeliveryRecord] {
        try deliveries(where: "d.message_seq = ?", .int(messageSeq), state: state, page: page)
    }

    /// A page of a device's deliveries, with their histories: through `deliveries_device`
    /// (`device_seq`, then the rowid) in either order.
    func deliveries(appID: String, deviceID: String, state: DeliveryState?, page: SeqPage) throws -> [DeliveryRecord]? {
        guard let deviceSeq = try deviceSeq(appID: appID, deviceID: deviceID) else { return nil }
        return try deliveries(where: "d.device_seq = ?", .int(deviceSeq), state: state, page: page)
    }

    /// How many deliveries a device has, in `state` when given.
    func deliveryCount(appID: String, deviceID: String, state: DeliveryState?) throws -> Int? {
        guard let deviceSeq = try deviceSeq(appID: appID, deviceID: deviceID) else { return nil }
        let (sql, values) = state.map { (" AND state = ?", [SQLValue.text($0.rawValue)]) } ?? ("", [])
        return try connection.first("SELECT count(*) FROM deliveries WHERE device_seq = ?" + sql, [.int(deviceSeq)] + values) { $0.int(0) } ?? 0
    }

    private func deviceSeq(appID: String, deviceID: String) throws -> Int? {
        try connection.first("SELECT seq FROM devices WHERE id = ? AND app_id = ?", [.text(deviceID), .text(appID)], { $0.int(0) })
    }

    private func deliveries(where condition: String, _ value: SQLValue, state: DeliveryState?, page: SeqPage) throws -> [DeliveryRecord] {
        var sql = Rows.deliveryQuery + " WHERE \(condition) AND d.seq \(page.comparison) ?"
        var values: [SQLValue] = [value, .int(page.bound)]
        if let state { sql += " AND d.state = ?"; values.append(.text(state.rawValue)) }
        return try withEvents(connection.query(sql + " \(page.orderBy("d.seq")) LIMIT ?", values + [.int(page.limit)], Rows.delivery))
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
