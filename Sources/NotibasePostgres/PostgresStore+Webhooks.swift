import Synchronization
package import NotibaseDomain
import NotibaseStore
/// Webhook endpoints, their stream and the feed on PostgreSQL (docs/decisions/0037,
/// PostgresSchema+Webhooks.swift).
extension PostgresStore {
    package func createWebhookEndpoint(_ endpoint: NewWebhookEndpoint) async throws -> WebhookEndpointRecord? {
        try await changingEndpoints { connection in
            let made = try connection.createWebhookEndpoint(endpoint)
            if made != nil { self.endpointsMayExist.store(true, ordering: .relaxed) }
            return (made, changed: false)
        }
    }

    /// Runs `body` in a transaction that may make or drop the webhooks' triggers (an endpoint
    /// made, the last one deleted, an app deleted with its endpoints, on any node), then sets the
    /// triggers for the endpoints it leaves. An advisory lock serializes these transactions: each
    /// sees what the one before it committed, so the triggers exist exactly while an endpoint
    /// does (PostgresSchema.sinceRelease). When `body` says it `changed` an app, the other nodes
    /// are told so at the commit (``changingApps(_:)``).
    package func changingEndpoints<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> (T, changed: Bool)) async throws -> T {
        try await pool.transaction { connection in
            try connection.run("SELECT pg_advisory_xact_lock(hashtext('notibase_webhook_triggers'))")
            let (result, changed) = try body(connection)
            if changed { try self.announce(.apps, on: connection) }
            try connection.run("SELECT notibase_webhook_triggers()")
            return result
        }
    }

    /// One node feeds at a time (the feed's row, locked or skipped). Only rows of transactions
    /// below the horizon (older than every transaction still running) are read, in (tx, seq)
    /// order; the stream's numbers are handed out under the lock, in that order. A transaction
    /// that begins writing after another committed comes after it; what reads others' outcomes
    /// and writes from them (a message's completion) runs after its own writes' commit
    /// (``completeAfterCommit(messageSeqs:now:)``), or it would be ordered before what it read.
    package func feedWebhookEvents(limit: Int) async throws -> Int {
        // Without an endpoint the feed stands still, writing nothing (the first endpoint moves it).
        let endpoints = try await pool.withConnection({ try $0.query("SELECT EXISTS (SELECT 1 FROM webhook_endpoints)").first { $0.text(0) == "t" } ?? false })
        endpointsMayExist.store(endpoints, ordering: .relaxed)
        guard endpoints else { return 0 }
        return try await pool.transaction { connection in
            // First, before this transaction has an ID of its own.
            let horizon = try connection.query("SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint").first { $0.int(0) } ?? 0
            guard let cursor = try connection.query("SELECT event_tx::text::bigint, event_seq FROM webhook_feed WHERE id = 1 FOR UPDATE SKIP LOCKED")
                .first({ (tx: $0.int(0), seq: $0.int(1)) }) else { return 0 }
            let apps = Set(try connection.query("SELECT DISTINCT app_id FROM webhook_endpoints").map { $0.text(0) })
            let history = try connection.query(
                """
                SELECT e.tx::text::bigint, e.seq, \(Rows.webhookHistoryColumns)
                FROM delivery_events e JOIN deliveries d ON d.seq = e.delivery_seq AND d.created_at = e.delivery_created_at
                JOIN messages m ON m.seq = d.message_seq LEFT JOIN devices v ON v.seq = d.device_seq
                WHERE e.tx IS NOT NULL AND (e.tx, e.seq) > ($1::text::xid8, $2) AND e.tx < $3::text::xid8 ORDER BY e.tx, e.seq LIMIT $4
                """, [.int(cursor.tx), .int(cursor.seq), .int(horizon), .int(limit)]).map(Rows.webhookHistoryRow)
            let outbox = try connection.query(
                // A row's lines stay in the database: the insert below copies them. Read, encoded
                // as JSON and parsed back by the database, a million sends' lines took the node's
                // connection threads and the database several seconds
                // (docs/benchmarks/2026-12-07-lab-notes.md).
                WebhookFeed.outboxRows(
                    order: "tx::text::bigint", sort: "tx, seq", condition: "tx < $1::text::xid8", limit: "$2",
                    columns: Rows.webhookOutboxColumnsLeavingLines), [.int(horizon), .int(limit)]
            ).map(Rows.webhookOutboxRowLeavingLines)
            let rows = WebhookFeed.merge(history: history, outbox: outbox, limit: limit)
            let events = try WebhookFeed.events(rows, apps: apps)
            if !events.isEmpty {
                // A row's number is its last event's: a row of several takes as many numbers of
                // the stream's sequence (only the feed, under its lock, takes them).
                let total = events.reduce(0) { $0 + $1.count }
                let last = try connection.query(
                    "SELECT setval(pg_get_serial_sequence('webhook_events', 'seq'), nextval(pg_get_serial_sequence('webhook_events', 'seq')) + $1 - 1)",
                    [.int(total)]).first { $0.int(0) } ?? 0
                var seq = last - total
                var fed: [(seq: Int, event: WebhookFeed.NewEvent)] = []
                var copied: (seqs: [Int], ids: PostgresArray.Texts, outbox: [Int]) = ([], PostgresArray.Texts(), [])
                for event in events {
                    seq += event.count
                    if let outbox = event.copiedFrom {
                        copied.seqs.append(seq)
                        copied.ids.append(event.id.utf8)
                        copied.outbox.append(outbox)
                    } else {
                        fed.append((seq, event))
                    }
                }
                // The events the feed rendered, from JSON; rows of lines, copied from the outbox
                // (their app, endpoint, type, time and count are the outbox row's, as read).
                try connection.run(
                    """
                    INSERT INTO webhook_events (seq, id, app_id, endpoint_id, type, at, data, count) OVERRIDING SYSTEM VALUE
                    SELECT seq, id, app, endpoint, type, at, data, count FROM (
                        SELECT r.seq, r.id, r.app, r.endpoint, r.type, r.at, r.data, r.count
                        FROM jsonb_to_recordset($1::jsonb) AS r(seq bigint, id text, app text, endpoint text, type text, at bigint, data text, count integer)
                        UNION ALL
                        SELECT u.seq, u.id, o.app_id, o.endpoint_id, o.type, o.at, o.events, o.count
                        FROM unnest($2::bigint[], $3::text[], $4::bigint[]) AS u(seq, id, outbox) JOIN webhook_outbox o ON o.seq = u.outbox
                    ) AS fed ORDER BY seq
                    """,
                    [.text(RecordsetJSON.of(fed, bytesPerRow: 256) { row, json in
                        json.field("seq", row.seq)
                        json.field("id", row.event.id)
                        json.field("app", row.event.appID)
                        json.field("endpoint", row.event.endpointID)
                        json.field("type", row.event.type)
                        json.field("at", row.event.at)
                        json.field("data", row.event.data)
                        json.field("count", row.event.count)
                    }), .text(PostgresArray.bigints(copied.seqs)), .text(copied.ids.literal),
                     .text(PostgresArray.bigints(copied.outbox))])
            }
            let taken = rows.filter { $0.kind == 0 }.count
            // Every history row below the horizon was read and taken: the feed moves to the horizon.
            let next = taken == history.count && history.count < limit
                ? (tx: max(horizon, cursor.tx), seq: horizon > cursor.tx ? 0 : cursor.seq)
                : rows.last(where: { $0.kind == 0 }).map { (tx: $0.order, seq: $0.seq) } ?? cursor
            if next != cursor {
                try connection.run("UPDATE webhook_feed SET event_tx = $1::text::xid8, event_seq = $2 WHERE id = 1", [.int(next.tx), .int(next.seq)])
            }
            let consumed = rows.filter { $0.kind == 1 }.map(\.seq)
            if !consumed.isEmpty {
                try connection.run("DELETE FROM webhook_outbox WHERE seq = ANY($1::bigint[])", [.text(PostgresArray.bigints(consumed))])
            }
            return WebhookFeed.eventCount(rows)
        }
    }
}
