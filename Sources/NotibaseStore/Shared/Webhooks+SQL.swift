package import NotibaseDomain
/// Webhook endpoints, their attempts and the stream as an endpoint reads it: the statements both
/// backends run alike (``SQLExecutor``). What differs (the feed, the triggers or SQLite's sends,
/// the first endpoint moving the feed) is in each backend's `Store+Webhooks.swift`.
extension SQLExecutor {
    /// How many endpoints the app has.
    package func webhookEndpointCount(appID: String) throws -> Int {
        try count("SELECT count(*) FROM webhook_endpoints WHERE app_id = \(p(1))", [.text(appID)])
    }

    /// Stores a new endpoint, its cursor at the stream's end.
    package func insertWebhookEndpoint(_ endpoint: NewWebhookEndpoint) throws -> WebhookEndpointRecord {
        let inserted = try first(
            """
            INSERT INTO webhook_endpoints (id, app_id, url, types, description, secret, cursor, created_at, updated_at)
            VALUES (\((1...6).map(p).joined(separator: ", ")), coalesce((SELECT max(seq) FROM webhook_events), 0), \(p(7)), \(p(7)))
            RETURNING \(Rows.webhookEndpointColumns)
            """,
            [.text(endpoint.id), .text(endpoint.appID), .text(endpoint.url), .optionalText(try endpoint.types.map(StoredJSON.encode)),
             .optionalText(endpoint.description), .bytes(endpoint.sealedSecret), .int(endpoint.now)], Rows.webhookEndpoint)
        guard let inserted else { throw StorageError.corrupt("webhook endpoint insert returned nothing") }
        return inserted
    }

    /// Stores the endpoint unless the app has its limit already (in PostgreSQL, the transaction
    /// holds the lock of every one that makes or drops an endpoint: the count is this one's). The
    /// database's first endpoint moves the feed, which stands still while there is none, to the
    /// end of the history (SQLite) or to this transaction (PostgreSQL: what older ones wrote is skipped).
    package func createWebhookEndpoint(_ endpoint: NewWebhookEndpoint) throws -> WebhookEndpointRecord? {
        guard endpoint.fits(besides: try webhookEndpointCount(appID: endpoint.appID)) else { return nil }
        let moved = dialect == .sqlite
            ? "event_seq = (SELECT coalesce(max(seq), 0) FROM delivery_events) WHERE id = 1"
            : "event_tx = pg_current_xact_id(), event_seq = 0 WHERE id = 1 AND event_tx < pg_current_xact_id()"
        _ = try write("UPDATE webhook_feed SET \(moved) AND NOT EXISTS (SELECT 1 FROM webhook_endpoints)", [])
        return try insertWebhookEndpoint(endpoint)
    }

    package func webhookEndpoint(appID: String, id: String) throws -> WebhookEndpointRecord? {
        try first("SELECT \(Rows.webhookEndpointColumns) FROM webhook_endpoints WHERE app_id = \(p(1)) AND id = \(p(2))", [.text(appID), .text(id)], Rows.webhookEndpoint)
    }

    package func webhookEndpoints(appID: String, page: SeqPage) throws -> [WebhookEndpointRecord] {
        try rows(
            """
            SELECT \(Rows.webhookEndpointColumns) FROM webhook_endpoints WHERE app_id = \(p(1)) AND seq \(page.comparison) \(p(2))
            \(page.orderBy("seq")) LIMIT \(p(3))
            """, [.text(appID), .int(page.bound), .int(page.limit)], Rows.webhookEndpoint)
    }

    package func updateWebhookEndpoint(appID: String, id: String, _ change: WebhookEndpointChange, now: Int) throws -> WebhookEndpointRecord? {
        let types = try change.types.flatMap { try $0.map(StoredJSON.encode) }
        return try first(
            """
            UPDATE webhook_endpoints SET \(WebhookSQL.changeAssignments(parameter: dialect.p))
            WHERE app_id = \(p(1)) AND id = \(p(2)) RETURNING \(Rows.webhookEndpointColumns)
            """,
            [.text(appID), .text(id), .optionalText(change.url), .flag(change.types != nil), .optionalText(types),
             .flag(change.description != nil), .optionalText(change.description.flatMap { $0 }), change.enabled.map(SQLParameter.flag) ?? .null, .int(now)],
            Rows.webhookEndpoint)
    }

    /// Deletes the endpoint (its attempts cascade), and what the outbox holds for an app left
    /// without endpoints; whether it existed.
    package func deleteWebhookEndpoint(appID: String, id: String) throws -> Bool {
        let deleted = try write("DELETE FROM webhook_endpoints WHERE app_id = \(p(1)) AND id = \(p(2))", [.text(appID), .text(id)]) == 1
        _ = try write(
            "DELETE FROM webhook_outbox WHERE app_id = \(p(1)) AND NOT EXISTS (SELECT 1 FROM webhook_endpoints WHERE app_id = \(p(1)))", [.text(appID)])
        return deleted
    }

    /// Writes a `webhook.test` event for the endpoint into the outbox, as the others are written
    /// (SQLite's row after the history's last number, ``WebhookSQL/afterEvent``); whether it exists.
    package func recordWebhookTest(appID: String, id: String, now: Int) throws -> Bool {
        let (column, value) = dialect == .sqlite ? ("after_event, ", WebhookSQL.afterEvent + ", ") : ("", "")
        return try write(
            """
            INSERT INTO webhook_outbox (\(column)app_id, endpoint_id, type, at)
            SELECT \(value)app_id, id, \(p(1)), \(p(2)) FROM webhook_endpoints WHERE app_id = \(p(3)) AND id = \(p(4))
            """, [.text(WebhookEventType.test), .int(now), .text(appID), .text(id)]) == 1
    }

    package func rotateWebhookSecret(appID: String, id: String, sealed: [UInt8], previousUntil: Int, now: Int) throws -> WebhookEndpointRecord? {
        try first(
            """
            UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = \(p(1)), secret = \(p(2)), updated_at = \(p(3))
            WHERE app_id = \(p(4)) AND id = \(p(5)) RETURNING \(Rows.webhookEndpointColumns)
            """, [.int(previousUntil), .bytes(sealed), .int(now), .text(appID), .text(id)], Rows.webhookEndpoint)
    }

    /// Moves the endpoint's cursor before the first event at or after `since` (a row's number is
    /// its last event's), or to the stream's end when nothing is that new, dropping its batch;
    /// how many events follow the cursor. Nil when the app has no such endpoint.
    package func replayWebhookEvents(appID: String, id: String, since: Int) throws -> Int? {
        guard try webhookEndpoint(appID: appID, id: id) != nil else { return nil }
        let start = try first(
            "SELECT seq - count FROM webhook_events WHERE app_id = \(p(1)) AND at >= \(p(2)) ORDER BY seq LIMIT 1", [.text(appID), .int(since)]) { $0.int(0) }
        let cursor = try start ?? count("SELECT coalesce(max(seq), 0) FROM webhook_events", [])
        _ = try write(
            "UPDATE webhook_endpoints SET cursor = \(p(1)), \(WebhookSQL.dropBatch) WHERE app_id = \(p(2)) AND id = \(p(3))",
            [.int(cursor), .text(appID), .text(id)])
        return try count("SELECT coalesce(sum(count), 0) FROM webhook_events WHERE app_id = \(p(1)) AND seq > \(p(2))", [.text(appID), .int(cursor)])
    }

    /// The endpoint's newest attempts; nil when the app has no such endpoint.
    package func webhookAttempts(appID: String, id: String, limit: Int) throws -> [WebhookAttemptRecord]? {
        guard try webhookEndpoint(appID: appID, id: id) != nil else { return nil }
        return try rows(
            "SELECT \(Rows.webhookAttemptColumns) FROM webhook_attempts WHERE endpoint_id = \(p(1)) ORDER BY seq DESC LIMIT \(p(2))", [.text(id), .int(limit)],
            Rows.webhookAttempt)
    }

    package func leaseWebhookEndpoints(owner: String, now: Int, until: Int, limit: Int, slots: Int) throws -> [WebhookEndpointRecord] {
        try rows(
            """
            UPDATE webhook_endpoints SET lease_owner = \(p(1)), lease_until = \(p(2))
            WHERE seq IN (\(WebhookSQL.dueEndpoints(owner: p(1), now: p(3), limit: p(4), slots: p(5), locking: dialect.skippingLockedRows(of: "e"))))
            RETURNING \(Rows.webhookEndpointColumns)
            """, [.text(owner), .int(until), .int(now), .int(limit), .int(slots)], Rows.webhookEndpoint)
    }

    /// The stream's events an endpoint reads (``WebhookFeed/read(after:through:limit:fetch:)``):
    /// the rows, its own or the app's, that end after `after` and start up to `through`.
    package func webhookEvents(appID: String, endpointID: String, after: Int, through: Int?, limit: Int) throws -> [WebhookEventRecord] {
        try WebhookFeed.read(after: after, through: through, limit: limit) { after, count in
            try rows(
                """
                SELECT \(Rows.webhookEventColumns) FROM webhook_events
                WHERE app_id = \(p(1)) AND seq > \(p(2)) AND seq - count < \(p(3)) AND (endpoint_id IS NULL OR endpoint_id = \(p(4))) ORDER BY seq LIMIT \(p(5))
                """, [.text(appID), .int(after), .int(through ?? Int(Int64.max)), .text(endpointID), .int(count)], Rows.webhookEvent)
        }
    }

    /// Logs the attempt (keeping the newest ``WebhookSQL/attemptsKept``), and writes the state
    /// while the lease and the revision are `owner`'s (``WebhookSQL/stateAssignments(parameter:)``);
    /// whether it wrote the state.
    package func saveWebhookDispatch(endpointID: String, owner: String, revision: Int, _ state: WebhookDispatchState, attempt: WebhookAttemptRecord?, release: Bool, now: Int) throws -> Bool {
        if let attempt {
            _ = try write(
                """
                INSERT INTO webhook_attempts (endpoint_id, batch_id, events, at, outcome, status, latency_ms, answer, next_retry_at)
                VALUES (\((1...9).map(p).joined(separator: ", ")))
                """,
                [.text(endpointID), .text(attempt.batchID), .int(attempt.events), .int(attempt.at), .text(attempt.outcome), .optionalInt(attempt.status),
                 .int(attempt.latencyMilliseconds), .text(attempt.answer), .optionalInt(attempt.nextRetryAt)])
            _ = try write(
                """
                DELETE FROM webhook_attempts WHERE endpoint_id = \(p(1)) AND seq <= (
                    SELECT seq FROM webhook_attempts WHERE endpoint_id = \(p(1)) ORDER BY seq DESC LIMIT 1 OFFSET CAST(\(p(2)) AS BIGINT))
                """, [.text(endpointID), .int(WebhookSQL.attemptsKept)])
        }
        return try write(
            "UPDATE webhook_endpoints SET \(WebhookSQL.stateAssignments(parameter: dialect.p)) WHERE id = \(p(1)) AND lease_owner = \(p(2)) AND revision = \(p(3))",
            [.text(endpointID), .text(owner), .int(revision), release ? .int(now) : .null, .int(state.cursor), .optionalText(state.batchID),
             .optionalInt(state.batchLast), .int(state.batchAttempts), .optionalInt(state.nextAttemptAt), .optionalInt(state.failingSince),
             .flag(state.enabled), .optionalText(state.disabledReason)]) == 1
    }

    /// Removes up to `limit` of the oldest stream rows recorded before `before`.
    package func purgeWebhookEvents(before: Int, limit: Int) throws -> Int {
        try write("DELETE FROM webhook_events WHERE seq IN (SELECT seq FROM webhook_events WHERE at < \(p(1)) ORDER BY at LIMIT \(p(2)))", [.int(before), .int(limit)])
    }
}

extension WebhookEndpointsStore where Self: SQLReadStore {
    package func webhookEndpoints(appID: String, page: SeqPage) async throws -> [WebhookEndpointRecord] {
        try await writing { try $0.webhookEndpoints(appID: appID, page: page) }
    }

    package func webhookEndpoint(appID: String, id: String) async throws -> WebhookEndpointRecord? {
        try await writing { try $0.webhookEndpoint(appID: appID, id: id) }
    }

    package func updateWebhookEndpoint(appID: String, id: String, _ change: WebhookEndpointChange, now: Int) async throws -> WebhookEndpointRecord? {
        try await writing { try $0.updateWebhookEndpoint(appID: appID, id: id, change, now: now) }
    }

    package func deleteWebhookEndpoint(appID: String, id: String) async throws -> Bool {
        try await changingEndpoints { (try $0.deleteWebhookEndpoint(appID: appID, id: id), changed: false) }
    }

    package func rotateWebhookSecret(appID: String, id: String, sealed: [UInt8], previousUntil: Int, now: Int) async throws -> WebhookEndpointRecord? {
        try await writing { try $0.rotateWebhookSecret(appID: appID, id: id, sealed: sealed, previousUntil: previousUntil, now: now) }
    }

    package func recordWebhookTest(appID: String, id: String, now: Int) async throws -> Bool {
        try await writing { try $0.recordWebhookTest(appID: appID, id: id, now: now) }
    }

    package func replayWebhookEvents(appID: String, id: String, since: Int) async throws -> Int? {
        try await inOneTransaction { try $0.replayWebhookEvents(appID: appID, id: id, since: since) }
    }

    package func webhookAttempts(appID: String, id: String, limit: Int) async throws -> [WebhookAttemptRecord]? {
        try await writing { try $0.webhookAttempts(appID: appID, id: id, limit: limit) }
    }
}

extension WebhookDispatchStore where Self: SQLReadStore {
    package func leaseWebhookEndpoints(owner: String, now: Int, until: Int, limit: Int, slots: Int) async throws -> [WebhookEndpointRecord] {
        try await writing { try $0.leaseWebhookEndpoints(owner: owner, now: now, until: until, limit: limit, slots: slots) }
    }

    /// A bulk read: on SQLite's bulk readers (nice 10), a dispatcher's read of the stream never
    /// waits behind the writer's sends, and the readers that read a send's facts before its
    /// record (which the send waits for) are not taken by it.
    package func webhookEvents(appID: String, endpointID: String, after: Int, through: Int?, limit: Int) async throws -> [WebhookEventRecord] {
        try await reading(app: nil, bulk: true) { try $0.webhookEvents(appID: appID, endpointID: endpointID, after: after, through: through, limit: limit) }
    }

    package func saveWebhookDispatch(endpointID: String, owner: String, revision: Int, _ state: WebhookDispatchState, attempt: WebhookAttemptRecord?, release: Bool, now: Int) async throws -> Bool {
        try await inOneTransaction {
            try $0.saveWebhookDispatch(endpointID: endpointID, owner: owner, revision: revision, state, attempt: attempt, release: release, now: now)
        }
    }

    package func purgeWebhookEvents(before: Int, limit: Int) async throws -> Int {
        try await writing { try $0.purgeWebhookEvents(before: before, limit: limit) }
    }
}
