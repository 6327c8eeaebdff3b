import Synchronization
package import NotibaseDomain
import NotibaseStore

/// Webhook endpoints, their stream and the feed on SQLite (docs/decisions/0037).
extension SQLiteStore {
    package func createWebhookEndpoint(_ endpoint: NewWebhookEndpoint) throws -> WebhookEndpointRecord? {
        let made = try connection.transaction { try reads.createWebhookEndpoint(endpoint) }
        if made != nil {
            endpointsMayExist.store(true, ordering: .relaxed)
            appsWithEndpoints.insert(endpoint.appID)
        }
        return made
    }

    /// One writer commits in number order: the history after the feed's place, and the outbox
    /// (each row after the history's number it follows), merged.
    package func feedWebhookEvents(limit: Int) throws -> Int {
        // Without an endpoint the feed stands still, writing nothing (the first endpoint moves it).
        let apps = Set(try connection.query("SELECT DISTINCT app_id FROM webhook_endpoints") { $0.text(0) })
        endpointsMayExist.store(!apps.isEmpty, ordering: .relaxed)
        appsWithEndpoints = apps
        guard !apps.isEmpty else { return 0 }
        return try connection.transaction {
            let cursor = try connection.first("SELECT event_seq FROM webhook_feed WHERE id = 1") { $0.int(0) } ?? 0
            let history = try connection.query(
                """
                SELECT e.seq, e.seq, \(Rows.webhookHistoryColumns)
                FROM delivery_events e JOIN deliveries d ON d.seq = e.delivery_seq JOIN messages m ON m.seq = d.message_seq
                LEFT JOIN devices v ON v.seq = d.device_seq
                WHERE e.seq > ? ORDER BY e.seq LIMIT ?
                """, [.int(cursor), .int(limit)], Rows.webhookHistoryRow)
            let outbox = try connection.query(
                WebhookFeed.outboxRows(order: "after_event", sort: "seq", condition: "1", limit: "?1"), [.int(limit)], Rows.webhookOutboxRow)
            let rows = WebhookFeed.merge(history: history, outbox: outbox, limit: limit)
            try appendToStream(WebhookFeed.events(rows, apps: apps))
            if let last = rows.last(where: { $0.kind == 0 }) {
                try connection.run("UPDATE webhook_feed SET event_seq = ? WHERE id = 1", [.int(last.seq)])
            }
            if let last = rows.last(where: { $0.kind == 1 }) {
                try connection.run("DELETE FROM webhook_outbox WHERE seq <= ?", [.int(last.seq)])
            }
            return WebhookFeed.eventCount(rows)
        }
    }

    /// Appends `events` to the stream, numbered after its last: a row's number is its last
    /// event's, and a row of several takes as many numbers. Only in commit order: by the feed, or
    /// by a transaction while the feed has nothing left to take (``recordSentEvents(_:now:sent:)``).
    private func appendToStream(_ events: [WebhookFeed.NewEvent]) throws {
        for event in events {
            try connection.run(
                """
                INSERT INTO webhook_events (seq, id, app_id, endpoint_id, type, at, data, count)
                VALUES (coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'webhook_events'), 0) + ?7, ?1, ?2, ?3, ?4, ?5, ?6, ?7)
                """,
                [.text(event.id), .text(event.appID), .optionalText(event.endpointID), .text(event.type), .int(event.at), .text(event.data),
                 .int(event.count)])
        }
    }

    /// What the `delivery.sent` events of `sends` name, by delivery number, for the deliveries of
    /// apps with an endpoint (``WebhookSQL/sendFacts(seqs:)``): read on a reader before the
    /// transaction that records them, for sends whose claim did not read it. In that transaction
    /// the join took the one writer, which every send waits for, 0.7 s of a 300,000-device send
    /// (docs/benchmarks/2026-12-07-lab-notes.md).
    package static func sendFacts(_ connection: SQLiteConnection, _ sends: [Int]) throws -> [Int: SendFacts] {
        var read: [Int: SendFacts] = [:]
        read.reserveCapacity(sends.count)
        try connection.each(WebhookSQL.sendFacts(seqs: "IN (SELECT value FROM json_each(?))"), [.text(JSON.text(sends))]) { row in
            let (seq, facts) = Rows.sendFacts(row)
            read[seq] = facts
        }
        return read
    }

    /// The `delivery.sent` events of `firstSends`, deliveries the transaction has just recorded
    /// sent for the first time, of apps with an endpoint now, written in that transaction (SQLite
    /// has no statement trigger): the rows `sent` holds (``WebhookSentRows``), those sends it
    /// lacks read and rendered here. Straight into the stream while the feed has nothing left to
    /// take (the outbox empty, the history fed to its end: on one writer this transaction's rows
    /// come after all of it); into the outbox otherwise, for the feed to merge.
    package func recordSentEvents(_ firstSends: [Int], now: Int, sent: WebhookSentRows) throws {
        guard !firstSends.isEmpty else { return }
        let apps = Set(try connection.query("SELECT DISTINCT app_id FROM webhook_endpoints") { $0.text(0) })
        guard !apps.isEmpty else { return }
        var (kept, unread) = sent.firstSends(firstSends, apps: apps)
        if !unread.isEmpty { kept = kept.adding(try Self.sendFacts(connection, unread)) }
        let rows = kept.sorted
        guard !rows.isEmpty else { return }
        let fedToTheEnd = try connection.first(
            """
            SELECT NOT EXISTS (SELECT 1 FROM webhook_outbox) AND (SELECT event_seq FROM webhook_feed WHERE id = 1) >= \(WebhookSQL.afterEvent)
            """) { $0.int(0) } == 1
        if fedToTheEnd {
            let ids = try Identifier.make(times: rows.map { _ in now })
            try appendToStream(zip(rows, ids).map { row, id in
                WebhookFeed.NewEvent(id: id, appID: row.app, endpointID: nil, type: WebhookEventType.deliverySent, at: now, data: row.text, count: row.count)
            })
            return
        }
        for row in rows {
            try connection.run(
                "INSERT INTO webhook_outbox (after_event, app_id, type, at, count, events) VALUES (\(WebhookSQL.afterEvent), ?, ?, ?, ?, ?)",
                [.text(row.app), .text(WebhookEventType.deliverySent), .int(now), .int(row.count), .text(row.text)])
        }
    }
}
