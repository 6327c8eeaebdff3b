import Synchronization

/// Webhook endpoints, their stream and the feed on SQLite (docs/decisions/0037).
extension SQLiteStore {
    /// The first endpoint of the database moves the feed to the end of the history: the feed
    /// stands still while there is none.
    func createWebhookEndpoint(_ endpoint: NewWebhookEndpoint) throws -> WebhookEndpointRecord? {
        try connection.transaction {
            let count = try connection.first(WebhookSQL.endpointCount(parameter: { "?\($0)" }), [.text(endpoint.appID)]) { $0.int(0) } ?? 0
            guard endpoint.fits(besides: count) else { return nil }
            endpointsMayExist.store(true, ordering: .relaxed)
            appsWithEndpoints.insert(endpoint.appID)
            try connection.run(
                """
                UPDATE webhook_feed SET event_seq = (SELECT coalesce(max(seq), 0) FROM delivery_events)
                WHERE id = 1 AND NOT EXISTS (SELECT 1 FROM webhook_endpoints)
                """)
            return try connection.first(
                """
                INSERT INTO webhook_endpoints (id, app_id, url, types, description, secret, cursor, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, coalesce((SELECT max(seq) FROM webhook_events), 0), ?, ?) RETURNING \(Rows.webhookEndpointColumns)
                """,
                [.text(endpoint.id), .text(endpoint.appID), .text(endpoint.url), .optionalText(try endpoint.types.map(StoredJSON.encode)),
                 .optionalText(endpoint.description), .blob(endpoint.sealedSecret), .int(endpoint.now), .int(endpoint.now)], Rows.webhookEndpoint)!
        }
    }

    func webhookEndpoints(appID: String, page: SeqPage) throws -> [WebhookEndpointRecord] {
        try connection.query(
            "SELECT \(Rows.webhookEndpointColumns) FROM webhook_endpoints WHERE app_id = ? AND seq \(page.comparison) ? \(page.orderBy("seq")) LIMIT ?",
            [.text(appID), .int(page.bound), .int(page.limit)], Rows.webhookEndpoint)
    }

    func webhookEndpoint(appID: String, id: String) throws -> WebhookEndpointRecord? {
        try connection.first(
            "SELECT \(Rows.webhookEndpointColumns) FROM webhook_endpoints WHERE app_id = ? AND id = ?", [.text(appID), .text(id)], Rows.webhookEndpoint)
    }

    func updateWebhookEndpoint(appID: String, id: String, _ change: WebhookEndpointChange, now: Int) throws -> WebhookEndpointRecord? {
        let (types, description) = try WebhookSQL.changedTexts(change)
        return try connection.first(
            """
            UPDATE webhook_endpoints SET \(WebhookSQL.changeAssignments(parameter: { "?\($0)" }))
            WHERE app_id = ?1 AND id = ?2 RETURNING \(Rows.webhookEndpointColumns)
            """,
            [.text(appID), .text(id), .optionalText(change.url), .int(change.types == nil ? 0 : 1), .optionalText(types),
             .int(change.description == nil ? 0 : 1), .optionalText(description), change.enabled.map { .int($0 ? 1 : 0) } ?? .null, .int(now)],
            Rows.webhookEndpoint)
    }

    func deleteWebhookEndpoint(appID: String, id: String) throws -> Bool {
        try connection.transaction {
            let deleted = try connection.run("DELETE FROM webhook_endpoints WHERE app_id = ? AND id = ?", [.text(appID), .text(id)]) == 1
            try connection.run(WebhookSQL.dropOrphanedOutbox(parameter: { "?\($0)" }), [.text(appID)])
            return deleted
        }
    }

    func rotateWebhookSecret(appID: String, id: String, sealed: [UInt8], previousUntil: Int, now: Int) throws -> WebhookEndpointRecord? {
        try connection.first(
            """
            UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = ?, secret = ?, updated_at = ?
            WHERE app_id = ? AND id = ? RETURNING \(Rows.webhookEndpointColumns)
            """, [.int(previousUntil), .blob(sealed), .int(now), .text(appID), .text(id)], Rows.webhookEndpoint)
    }

    func recordWebhookTest(appID: String, id: String, now: Int) throws -> Bool {
        try connection.run(
            """
            INSERT INTO webhook_outbox (after_event, app_id, endpoint_id, type, at)
            SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'delivery_events'), 0), app_id, id, ?, ?
            FROM webhook_endpoints WHERE app_id = ? AND id = ?
            """, [.text(WebhookEventType.test), .int(now), .text(appID), .text(id)]) == 1
    }

    func replayWebhookEvents(appID: String, id: String, since: Int) throws -> Int? {
        try connection.transaction {
            guard try webhookEndpoint(appID: appID, id: id) != nil else { return nil }
            // A row's number is its last event's: the cursor goes before its first.
            let first = try connection.first(
                "SELECT seq - count FROM webhook_events WHERE app_id = ? AND at >= ? ORDER BY seq LIMIT 1", [.text(appID), .int(since)]) { $0.int(0) }
            let cursor = try first ?? connection.first("SELECT coalesce(max(seq), 0) FROM webhook_events") { $0.int(0) } ?? 0
            try connection.run(
                """
                UPDATE webhook_endpoints SET cursor = ?, \(WebhookSQL.dropBatch) WHERE app_id = ? AND id = ?
                """, [.int(cursor), .text(appID), .text(id)])
            return try connection.first(
                "SELECT coalesce(sum(count), 0) FROM webhook_events WHERE app_id = ? AND seq > ?", [.text(appID), .int(cursor)]) { $0.int(0) } ?? 0
        }
    }

    func webhookAttempts(appID: String, id: String, limit: Int) throws -> [WebhookAttemptRecord]? {
        guard try webhookEndpoint(appID: appID, id: id) != nil else { return nil }
        return try connection.query(
            "SELECT \(Rows.webhookAttemptColumns) FROM webhook_attempts WHERE endpoint_id = ? ORDER BY seq DESC LIMIT ?",
            [.text(id), .int(limit)], Rows.webhookAttempt)
    }

    /// One writer commits in number order: the history after the feed's place, and the outbox
    /// (each row after the history's number it follows), merged.
    func feedWebhookEvents(limit: Int) throws -> Int {
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
    /// by a transaction while the feed has nothing left to take (``recordSentEvents(_:now:rendered:)``).
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

    /// A `delivery.sent` event rendered ahead of its transaction: its app, its message, and the
    /// rest of its line (``WebhookSendLines/values(deliveryID:providerID:deviceID:externalUserID:platform:)``).
    struct RenderedSend: Sendable {
        var appID: String
        var messageID: String
        var values: String
    }

    /// A batch's sends' events made ahead of its transaction: each app's row of them (its
    /// deliveries in order, and the row's text, written straight from what the claims read), the
    /// sends it could not render and why. The transaction takes a row as it is when every send
    /// turns out a first send, as nearly always, and asks nothing of a send on its own then: the
    /// one writer neither writes the text nor looks each send up.
    struct RenderedSends: Sendable {
        var rows: [String: (seqs: [Int], text: String)] = [:]
        /// Sends claimed while their app had no endpoint, by app
        /// (``ClaimedDelivery/appWithoutEndpoint``): rendered only if it has one now.
        var withoutEndpoint: [String: [Int]] = [:]
        /// Sends neither rendered nor known to be of an app without an endpoint: the transaction
        /// renders those of apps with one.
        var unrendered: [Int] = []
        /// How many sends all of these are.
        var count = 0

        init() {}

        /// The sends among `updates` that carry what their claim read (``DeliveryUpdate/sendFacts``)
        /// rendered, in delivery order, with `read`, those a reader rendered; of `unread`, the
        /// sends neither covers, those `read` lacks are left for the transaction.
        init(_ updates: [DeliveryUpdate], read: [Int: RenderedSend] = [:], unread: [Int] = []) {
            // By their places in `updates`, not copies of them: an update with its facts is a
            // dozen strings to retain and release (a tenth of a worker's time with an endpoint).
            var sends = updates.indices.filter { updates[$0].state == .sent && (updates[$0].sendFacts != nil || updates[$0].appWithoutEndpoint != nil) }
            if !zip(sends, sends.dropFirst()).allSatisfy({ updates[$0].seq < updates[$1].seq }) { sends.sort { updates[$0].seq < updates[$1].seq } }
            // The row being written is kept aside from the others while the sends are of its app,
            // as nearly always all of them are: no lookup by app for each send.
            var builders: [String: (seqs: [Int], row: WebhookSendLines.Row)] = [:]
            var current: (app: String, seqs: [Int], row: WebhookSendLines.Row)?
            for index in sends {
                if let facts = updates[index].sendFacts {
                    if current?.app != facts.appID {
                        if let done = current { builders[done.app] = (done.seqs, done.row) }
                        // The first app's row is made room for all of them: nearly always the only one.
                        let capacity = current == nil ? sends.count : 0
                        let built = builders.removeValue(forKey: facts.appID) ?? ([], WebhookSendLines.Row(capacity: capacity))
                        current = (facts.appID, built.seqs, built.row)
                        if capacity > 0 { current!.seqs.reserveCapacity(capacity) }
                    }
                    current!.seqs.append(updates[index].seq)
                    current!.row.append(facts, providerID: updates[index].providerID)
                } else if let app = updates[index].appWithoutEndpoint {
                    withoutEndpoint[app, default: []].append(updates[index].seq)
                }
            }
            if let done = current { builders[done.app] = (done.seqs, done.row) }
            for (app, built) in builders { rows[app] = (built.seqs, built.row.text) }
            if !read.isEmpty { rows = Self.merged(rows, read) }
            unrendered = unread.filter { read[$0] == nil }
            count = sends.count + unread.count
        }

        /// `rows` with `more` in them, each app's in delivery order.
        static func merged(_ rows: [String: (seqs: [Int], text: String)], _ more: [Int: RenderedSend]) -> [String: (seqs: [Int], text: String)] {
            var lines: [String: [(seq: Int, line: WebhookSendLines.Line)]] = [:]
            for (app, row) in rows {
                lines[app] = Array(zip(row.seqs, WebhookSendLines.lines(row.text) ?? []))
            }
            for (seq, send) in more {
                lines[send.appID, default: []].append((seq, WebhookSendLines.Line(messageID: send.messageID, values: send.values)))
            }
            return lines.mapValues { lines in
                let lines = lines.sorted { $0.seq < $1.seq }
                return (lines.map(\.seq), WebhookSendLines.row(lines.map(\.line)))
            }
        }
    }

    /// The `delivery.sent` events' `data` of `sends` (updates to `sent`), by delivery number, for
    /// the deliveries of apps with an endpoint: read on a reader before the transaction that
    /// records them, as
    /// ``WebhookFeed/sentData(appID:deliveryID:providerID:deviceID:externalUserID:messageID:platform:)``
    /// writes it. In that transaction the join and the text took the one writer, which every
    /// send waits for, 0.7 s of a 300,000-device send (docs/benchmarks/2026-12-07-lab-notes.md). The
    /// provider's ID is the update's, or the row's when the update has none, as the update leaves it.
    static func renderSends(_ connection: SQLiteConnection, _ sends: [DeliveryUpdate]) throws -> [Int: RenderedSend] {
        let providerIDs = Dictionary(sends.map { ($0.seq, $0.providerID) }, uniquingKeysWith: { $1 })
        var rendered: [Int: RenderedSend] = [:]
        rendered.reserveCapacity(sends.count)
        try connection.each(
            """
            SELECT d.seq, m.app_id, d.id, d.provider_id, v.id, v.external_user_id, m.id, d.platform
            FROM deliveries d JOIN messages m ON m.seq = d.message_seq LEFT JOIN devices v ON v.seq = d.device_seq
            WHERE d.seq IN (SELECT value FROM json_each(?)) AND EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.app_id = m.app_id)
            """, [.text(JSON.text(sends.map(\.seq)))]
        ) { row in
            let seq = row.int(0)
            rendered[seq] = RenderedSend(appID: row.text(1), messageID: row.text(6), values: WebhookSendLines.values(
                deliveryID: row.text(2), providerID: (providerIDs[seq] ?? nil) ?? row.optionalText(3), deviceID: row.optionalText(4),
                externalUserID: row.optionalText(5), platform: row.optionalText(7)))
        }
        return rendered
    }

    /// The `delivery.sent` events of `firstSends`, deliveries the transaction has just recorded
    /// sent for the first time, of apps with an endpoint now, written in that transaction (SQLite
    /// has no statement trigger): one row per app, its sends in delivery order as lines
    /// (``WebhookSendLines``), as `rendered` has them (those it lacks are rendered here, the same
    /// way). Straight into the stream while the feed has nothing left to take (the outbox empty,
    /// the history fed to its end: on one writer this transaction's rows come after all of it);
    /// into the outbox otherwise, for the feed to merge.
    func recordSentEvents(_ firstSends: [Int], now: Int, rendered: RenderedSends) throws {
        guard !firstSends.isEmpty else { return }
        let apps = Set(try connection.query("SELECT DISTINCT app_id FROM webhook_endpoints") { $0.text(0) })
        guard !apps.isEmpty else { return }
        // Every send a first send (as nearly always): each row as it was made. Otherwise only the
        // first sends, asked one by one.
        let first: Set<Int>? = firstSends.count == rendered.count ? nil : Set(firstSends)
        var kept = rendered.rows.filter { apps.contains($0.key) }
        if let first {
            kept = kept.compactMapValues { row in
                guard !row.seqs.allSatisfy(first.contains) else { return row }
                let lines = zip(row.seqs, WebhookSendLines.lines(row.text) ?? []).filter { first.contains($0.0) }
                return lines.isEmpty ? nil : (lines.map(\.0), WebhookSendLines.row(lines.map(\.1)))
            }
        }
        // Sends of an app whose first endpoint came after their claim, and any not rendered: read
        // now, in this transaction, of apps with an endpoint only (the provider's ID is the row's now).
        // (Nothing rendered: the caller saw no endpoint, and every send is read here.)
        let unrendered = rendered.count == 0 ? firstSends : (rendered.withoutEndpoint.filter { apps.contains($0.key) }.flatMap(\.value) + rendered.unrendered)
            .filter { first?.contains($0) ?? true }
        if !unrendered.isEmpty {
            kept = RenderedSends.merged(kept, try Self.renderSends(connection, unrendered.map { DeliveryUpdate(seq: $0, state: .sent) }))
        }
        let rows = kept.sorted { $0.key < $1.key }.map { (app: $0.key, count: $0.value.seqs.count, text: $0.value.text) }
        guard !rows.isEmpty else { return }
        let fedToTheEnd = try connection.first(
            """
            SELECT NOT EXISTS (SELECT 1 FROM webhook_outbox)
                AND (SELECT event_seq FROM webhook_feed WHERE id = 1) >= coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'delivery_events'), 0)
            """) { $0.int(0) } == 1
        if fedToTheEnd {
            let ids = try Identifier.make(times: rows.map { _ in now })
            try appendToStream(zip(rows, ids).map { row, id in
                WebhookFeed.NewEvent(id: id, appID: row.app, endpointID: nil, type: "delivery.sent", at: now, data: row.text, count: row.count)
            })
            return
        }
        for row in rows {
            try connection.run(
                """
                INSERT INTO webhook_outbox (after_event, app_id, type, at, count, events)
                VALUES (coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'delivery_events'), 0), ?, 'delivery.sent', ?, ?, ?)
                """, [.text(row.app), .int(now), .int(row.count), .text(row.text)])
        }
    }

    func leaseWebhookEndpoints(owner: String, now: Int, until: Int, limit: Int, slots: Int) throws -> [WebhookEndpointRecord] {
        try connection.query(
            """
            UPDATE webhook_endpoints SET lease_owner = ?1, lease_until = ?2
            WHERE seq IN (\(WebhookSQL.dueEndpoints(owner: "?1", now: "?3", limit: "?4", slots: "?5")))
            RETURNING \(Rows.webhookEndpointColumns)
            """, [.text(owner), .int(until), .int(now), .int(limit), .int(slots)], Rows.webhookEndpoint)
    }

    /// On a bulk reader (``SQLiteReaders``, nice 10): a dispatcher's read of the stream never
    /// waits behind the writer's sends, and the readers that render a send's events before its
    /// record (``renderSends(_:_:)``, which the send waits for) are not taken by it.
    nonisolated func webhookEvents(appID: String, endpointID: String, after: Int, through: Int?, limit: Int) async throws -> [WebhookEventRecord] {
        try await readers.bulkRead { reads in
            try WebhookFeed.read(after: after, through: through, limit: limit) { after, rows in
                try reads.connection.query(
                    """
                    SELECT \(Rows.webhookEventColumns) FROM webhook_events
                    WHERE app_id = ? AND seq > ? AND seq - count < ? AND (endpoint_id IS NULL OR endpoint_id = ?) ORDER BY seq LIMIT ?
                    """, [.text(appID), .int(after), .int(through ?? Int(Int64.max)), .text(endpointID), .int(rows)], Rows.webhookEvent)
            }
        }
    }

    func saveWebhookDispatch(endpointID: String, owner: String, revision: Int, _ state: WebhookDispatchState, attempt: WebhookAttemptRecord?, release: Bool, now: Int) throws -> Bool {
        try connection.transaction {
            if let attempt {
                try connection.run(
                    """
                    INSERT INTO webhook_attempts (endpoint_id, batch_id, events, at, outcome, status, latency_ms, answer, next_retry_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [.text(endpointID)] + WebhookSQL.attemptValues(attempt).map(\.sqlite))
                try connection.run(WebhookSQL.trimAttempts(parameter: { "?\($0)" }), [.text(endpointID), .int(WebhookSQL.attemptsKept)])
            }
            return try connection.run(
                "UPDATE webhook_endpoints SET \(WebhookSQL.stateAssignments(parameter: { "?\($0)" })) WHERE id = ?1 AND lease_owner = ?2 AND revision = ?3",
                ([.text(endpointID), .text(owner), .int(revision), release ? .int(now) : .null] + WebhookSQL.stateValues(state)).map(\.sqlite)) == 1
        }
    }

    func purgeWebhookEvents(before: Int, limit: Int) throws -> Int {
        try connection.run(
            "DELETE FROM webhook_events WHERE seq IN (SELECT seq FROM webhook_events WHERE at < ? ORDER BY at LIMIT ?)", [.int(before), .int(limit)])
    }
}
