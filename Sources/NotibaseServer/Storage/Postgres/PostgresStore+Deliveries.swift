import Foundation
import NotibaseCore

extension PostgresStore {
    /// A page of a message's deliveries: through `deliveries_message_seq (message_seq, seq)`,
    /// merged across the weeks' partitions, in either order.
    func deliveries(messageSeq: Int, state: DeliveryState?, page: SeqPage) async throws -> [DeliveryRecord] {
        try await self.page(where: "d.message_seq = $1", .int(messageSeq), state: state, page: page)
    }

    /// A page of a device's deliveries: through `deliveries_device_seq (device_seq, seq)`.
    func deliveries(appID: String, deviceID: String, state: DeliveryState?, page: SeqPage) async throws -> [DeliveryRecord]? {
        guard let deviceSeq = try await deviceSeq(appID: appID, deviceID: deviceID) else { return nil }
        return try await self.page(where: "d.device_seq = $1", .int(deviceSeq), state: state, page: page)
    }

    func deliveryCount(appID: String, deviceID: String, state: DeliveryState?) async throws -> Int? {
        guard let deviceSeq = try await deviceSeq(appID: appID, deviceID: deviceID) else { return nil }
        let (sql, values) = state.map { (" AND state = $2", [PostgresValue.text($0.rawValue)]) } ?? ("", [])
        return try await pool.withConnection {
            try $0.query("SELECT count(*) FROM deliveries WHERE device_seq = $1" + sql, [.int(deviceSeq)] + values).first { $0.int(0) } ?? 0
        }
    }

    private func deviceSeq(appID: String, deviceID: String) async throws -> Int? {
        try await pool.withConnection {
            try $0.query("SELECT seq FROM devices WHERE id = $1 AND app_id = $2", [.text(deviceID), .text(appID)]).first { $0.int(0) }
        }
    }

    func delivery(appID: String, id: String) async throws -> DeliveryRecord? {
        try await pool.withConnection { connection in
            try Self.withEvents(connection, connection.query(Rows.deliveryQuery + " WHERE d.id = $1 AND m.app_id = $2", [.text(id), .text(appID)]).map(Rows.delivery))
                .first
        }
    }

    private func page(where condition: String, _ value: PostgresValue, state: DeliveryState?, page: SeqPage) async throws -> [DeliveryRecord] {
        var sql = Rows.deliveryQuery + " WHERE \(condition) AND d.seq \(page.comparison) $2"
        var values: [PostgresValue] = [value, .int(page.bound)]
        if let state {
            values.append(.text(state.rawValue))
            sql += " AND d.state = $\(values.count)"
        }
        values.append(.int(page.limit))
        sql += " \(page.orderBy("d.seq")) LIMIT $\(values.count)"
        let query = sql
        let parameters = values
        return try await pool.withConnection { connection in
            try Self.withEvents(connection, connection.query(query, parameters).map(Rows.delivery))
        }
    }

    /// The deliveries with their histories, read with one query for the whole page.
    private static func withEvents(_ connection: PostgresConnection, _ deliveries: [DeliveryRecord]) throws -> [DeliveryRecord] {
        guard !deliveries.isEmpty else { return [] }
        var events: [Int: [DeliveryEventRecord]] = [:]
        let rows = try connection.query(
            """
            SELECT delivery_seq, event, at, detail FROM delivery_events
            WHERE delivery_seq IN (SELECT value::bigint FROM jsonb_array_elements_text($1::jsonb)) ORDER BY delivery_seq, seq
            """, [.text(JSON.text(deliveries.map(\.seq)))]).map { ($0.int(0), Rows.event($0, from: 1)) }
        for (seq, event) in rows { events[seq, default: []].append(event) }
        return deliveries.map { delivery in
            var delivery = delivery
            delivery.events = events[delivery.seq] ?? []
            return delivery
        }
    }

    /// Applies a receipt as `decision` says, reading the facts it asks for and writing what it
    /// returns, in one transaction. The delivery's row is locked, so two nodes count alike.
    func applyReceipt(appID: String, _ receipt: Receipt, detail: DeliveryEventDetail, limit: Int, now: Int, decision: some ReceiptDeciding) async throws -> ReceiptResult {
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
