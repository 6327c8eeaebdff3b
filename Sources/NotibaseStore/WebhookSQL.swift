package import NotibaseDomain
/// The webhooks' statements both backends run alike, with the backend's parameter marks
/// (`?N` or `$N`), and their values in a form either backend binds.
package enum WebhookSQL {
    /// A value either backend binds: the one form every statement written once uses.
    package typealias Value = SQLParameter

    /// How many endpoints an app has (parameter 1: the app).
    package static func endpointCount(parameter p: (Int) -> String) -> String {
        "SELECT count(*) FROM webhook_endpoints WHERE app_id = \(p(1))"
    }

    /// What the `delivery.sent` events of some deliveries name, for those of apps with an endpoint
    /// (`seqs`: the backend's test of `d.seq`, such as `= ANY($1::bigint[])`), as
    /// ``Rows/sendFacts(_:)`` reads it: for sends whose claim did not read it.
    package static func sendFacts(seqs: String) -> String {
        """
        SELECT d.seq, m.app_id, m.id, d.id, d.platform, v.id, v.external_user_id, d.provider_id
        FROM deliveries d JOIN messages m ON m.seq = d.message_seq LEFT JOIN devices v ON v.seq = d.device_seq
        WHERE d.seq \(seqs) AND EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.app_id = m.app_id)
        """
    }

    /// A new endpoint, its cursor at the stream's end (parameters: ID, app, URL, types, description,
    /// sealed secret, now).
    package static func insertEndpoint(parameter p: (Int) -> String) -> String {
        """
        INSERT INTO webhook_endpoints (id, app_id, url, types, description, secret, cursor, created_at, updated_at)
        VALUES (\((1...6).map(p).joined(separator: ", ")), coalesce((SELECT max(seq) FROM webhook_events), 0), \(p(7)), \(p(7)))
        RETURNING \(Rows.webhookEndpointColumns)
        """
    }

    /// Endpoint `id` of app `appID` (parameters 1 and 2).
    package static func endpoint(parameter p: (Int) -> String) -> String {
        "SELECT \(Rows.webhookEndpointColumns) FROM webhook_endpoints WHERE app_id = \(p(1)) AND id = \(p(2))"
    }

    /// A page of an app's endpoints (parameters: the app, the page's bound, its limit).
    package static func endpoints(_ page: SeqPage, parameter p: (Int) -> String) -> String {
        "SELECT \(Rows.webhookEndpointColumns) FROM webhook_endpoints WHERE app_id = \(p(1)) AND seq \(page.comparison) \(p(2)) \(page.orderBy("seq")) LIMIT \(p(3))"
    }

    /// A new secret, the old one kept until a time (parameters: until, the new sealed secret, now,
    /// the app, the endpoint).
    package static func rotateSecret(parameter p: (Int) -> String) -> String {
        """
        UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = \(p(1)), secret = \(p(2)), updated_at = \(p(3))
        WHERE app_id = \(p(4)) AND id = \(p(5)) RETURNING \(Rows.webhookEndpointColumns)
        """
    }

    /// A replay's statements: where its cursor goes (before the first event at or after a time,
    /// parameters the app and the time: a row's number is its last event's), the stream's end
    /// when nothing is that new, the cursor moved and the batch dropped (the cursor, the app, the
    /// endpoint), and how many events follow it (the app, the cursor).
    package enum Replay {
        package static func start(parameter p: (Int) -> String) -> String {
            "SELECT seq - count FROM webhook_events WHERE app_id = \(p(1)) AND at >= \(p(2)) ORDER BY seq LIMIT 1"
        }

        package static let streamEnd = "SELECT coalesce(max(seq), 0) FROM webhook_events"

        package static func move(parameter p: (Int) -> String) -> String {
            "UPDATE webhook_endpoints SET cursor = \(p(1)), \(dropBatch) WHERE app_id = \(p(2)) AND id = \(p(3))"
        }

        package static func events(parameter p: (Int) -> String) -> String {
            "SELECT coalesce(sum(count), 0) FROM webhook_events WHERE app_id = \(p(1)) AND seq > \(p(2))"
        }
    }

    /// An endpoint's newest attempts (parameters: the endpoint, how many).
    package static func attempts(parameter p: (Int) -> String) -> String {
        "SELECT \(Rows.webhookAttemptColumns) FROM webhook_attempts WHERE endpoint_id = \(p(1)) ORDER BY seq DESC LIMIT \(p(2))"
    }

    /// An attempt logged (parameters: the endpoint, then ``attemptValues(_:)``).
    package static func insertAttempt(parameter p: (Int) -> String) -> String {
        """
        INSERT INTO webhook_attempts (endpoint_id, batch_id, events, at, outcome, status, latency_ms, answer, next_retry_at)
        VALUES (\((1...9).map(p).joined(separator: ", ")))
        """
    }

    /// A dispatch's state stored while the lease and the revision are its own (parameters: the
    /// endpoint, the owner, the revision, then ``stateAssignments(parameter:)``'s).
    package static func saveDispatch(parameter p: (Int) -> String) -> String {
        "UPDATE webhook_endpoints SET \(stateAssignments(parameter: p)) WHERE id = \(p(1)) AND lease_owner = \(p(2)) AND revision = \(p(3))"
    }

    /// The stream's rows an endpoint reads (parameters: the app, after, through, the endpoint, how
    /// many rows): those that end after `after` and start up to `through`, its own or the app's.
    package static func streamRows(parameter p: (Int) -> String) -> String {
        """
        SELECT \(Rows.webhookEventColumns) FROM webhook_events
        WHERE app_id = \(p(1)) AND seq > \(p(2)) AND seq - count < \(p(3)) AND (endpoint_id IS NULL OR endpoint_id = \(p(4))) ORDER BY seq LIMIT \(p(5))
        """
    }

    /// Removes the oldest stream rows before a time (parameters: the time, how many at most).
    package static func purgeEvents(parameter p: (Int) -> String) -> String {
        "DELETE FROM webhook_events WHERE seq IN (SELECT seq FROM webhook_events WHERE at < \(p(1)) ORDER BY at LIMIT \(p(2)))"
    }

    /// How many attempts the log keeps per endpoint.
    package static let attemptsKept = 100

    /// The stored forms of a change's types and description.
    package static func changedTexts(_ change: WebhookEndpointChange) throws -> (types: String?, description: String?) {
        (try change.types.flatMap { try $0.map(StoredJSON.encode) }, change.description.flatMap { $0 })
    }

    /// The assignments of ``WebhookEndpointChange`` (parameters 3 to 9: url, whether types are
    /// given, types, whether the description is given, description, enabled, now). A batch in
    /// flight stays fixed, its `webhook-id` with it, whatever changes: made afresh, its events went
    /// again under a new ID, and a receiver deduplicating by ID took them twice (issue 43). A new
    /// URL is tried at once, its failures forgotten, as enabling forgets them.
    package static func changeAssignments(parameter p: (Int) -> String) -> String {
        let fresh = "(CAST(\(p(8)) AS INTEGER) = 1 OR CAST(\(p(3)) AS TEXT) IS NOT NULL)"
        return """
            url = coalesce(CAST(\(p(3)) AS TEXT), url),
            types = CASE WHEN CAST(\(p(4)) AS INTEGER) = 1 THEN CAST(\(p(5)) AS TEXT) ELSE types END,
            description = CASE WHEN CAST(\(p(6)) AS INTEGER) = 1 THEN CAST(\(p(7)) AS TEXT) ELSE description END,
            enabled = coalesce(CAST(\(p(8)) AS INTEGER), enabled),
            disabled_reason = CASE WHEN CAST(\(p(8)) AS INTEGER) = 1 THEN NULL ELSE disabled_reason END,
            failing_since = CASE WHEN \(fresh) THEN NULL ELSE failing_since END,
            next_attempt_at = CASE WHEN \(fresh) THEN NULL ELSE next_attempt_at END,
            batch_attempts = CASE WHEN \(fresh) THEN 0 ELSE batch_attempts END,
            revision = revision + 1, updated_at = CAST(\(p(9)) AS BIGINT)
            """
    }

    /// Drops the batch in flight, and tells a dispatcher holding the endpoint that it changed.
    package static let dropBatch = "batch_id = NULL, batch_last = NULL, batch_attempts = 0, next_attempt_at = NULL, revision = revision + 1"

    /// Removes what the outbox holds for an app left without endpoints (parameter 1: the app).
    package static func dropOrphanedOutbox(parameter p: (Int) -> String) -> String {
        "DELETE FROM webhook_outbox WHERE app_id = \(p(1)) AND NOT EXISTS (SELECT 1 FROM webhook_endpoints WHERE app_id = \(p(1)))"
    }

    /// The endpoints to lease: enabled, with something to send, due at `now`, nobody's lease
    /// running; taken in turns across apps, so that no app holds more than its share of `owner`'s
    /// `slots` while other apps wait (issue 43, docs/decisions/0037).
    ///
    /// - An endpoint's place in its app's line: how long it has been due (its retry time, or when
    ///   its last lease ended), so one just answered goes behind those waiting, never to the front.
    /// - Its turn: that place plus the endpoints of its app `owner` holds now; the first turns of
    ///   every app come before any app's second.
    /// - An app's share: `slots` divided among the apps with an endpoint due or held by `owner`,
    ///   at least one each; a turn past it waits.
    ///
    /// `locking` ends the statement (PostgreSQL's `FOR UPDATE OF e SKIP LOCKED`).
    package static func dueEndpoints(owner: String, now: String, limit: String, slots: String, locking: String = "") -> String {
        let at = "CAST(\(now) AS BIGINT)"
        let held = "h.lease_owner = CAST(\(owner) AS TEXT) AND h.lease_until > \(at)"
        let due = """
            d.enabled = 1 AND (d.lease_until IS NULL OR d.lease_owner IS NULL OR d.lease_until <= \(at))
                AND (d.next_attempt_at IS NULL OR d.next_attempt_at <= \(at))
                AND (d.batch_id IS NOT NULL OR EXISTS (
                    SELECT 1 FROM webhook_events w WHERE w.app_id = d.app_id AND w.seq > d.cursor AND (w.endpoint_id IS NULL OR w.endpoint_id = d.id)))
            """
        return """
            SELECT e.seq FROM webhook_endpoints e JOIN (
                SELECT r.seq, r.since, r.place + (SELECT count(*) FROM webhook_endpoints h WHERE h.app_id = r.app_id AND \(held)) AS turn
                FROM (
                    SELECT d.seq, d.app_id, coalesce(d.next_attempt_at, d.lease_until, 0) AS since,
                        row_number() OVER (PARTITION BY d.app_id ORDER BY coalesce(d.next_attempt_at, d.lease_until, 0), d.seq) AS place
                    FROM webhook_endpoints d WHERE \(due)
                ) r
            ) t ON t.seq = e.seq
            WHERE t.turn = 1 OR t.turn * (
                SELECT count(*) FROM (
                    SELECT d.app_id FROM webhook_endpoints d WHERE \(due)
                    UNION SELECT h.app_id FROM webhook_endpoints h WHERE \(held)
                ) a
            ) <= CAST(\(slots) AS BIGINT)
            ORDER BY t.turn, t.since, e.seq LIMIT CAST(\(limit) AS BIGINT) \(locking)
            """
    }

    package static func attemptValues(_ attempt: WebhookAttemptRecord) -> [Value] {
        [.text(attempt.batchID), .int(attempt.events), .int(attempt.at), .text(attempt.outcome), .optionalInt(attempt.status),
         .int(attempt.latencyMilliseconds), .text(attempt.answer), .optionalInt(attempt.nextRetryAt)]
    }

    /// Keeps an endpoint's newest attempts (parameters: the endpoint, how many).
    package static func trimAttempts(parameter p: (Int) -> String) -> String {
        """
        DELETE FROM webhook_attempts WHERE endpoint_id = \(p(1)) AND seq <= (
            SELECT seq FROM webhook_attempts WHERE endpoint_id = \(p(1)) ORDER BY seq DESC LIMIT 1 OFFSET CAST(\(p(2)) AS BIGINT))
        """
    }

    /// The assignments of a ``WebhookDispatchState`` (parameters 4 to 12: when the lease ends, null
    /// to keep it, then ``stateValues(_:)``). An ended lease keeps its end (`lease_until`, with no
    /// owner): the endpoint's place in its app's line (``dueEndpoints(owner:now:limit:slots:locking:)``).
    package static func stateAssignments(parameter p: (Int) -> String) -> String {
        let release = "CAST(\(p(4)) AS BIGINT) IS NOT NULL"
        return """
            cursor = CAST(\(p(5)) AS BIGINT), batch_id = CAST(\(p(6)) AS TEXT), batch_last = CAST(\(p(7)) AS BIGINT),
            batch_attempts = CAST(\(p(8)) AS INTEGER), next_attempt_at = CAST(\(p(9)) AS BIGINT), failing_since = CAST(\(p(10)) AS BIGINT),
            enabled = CAST(\(p(11)) AS INTEGER), disabled_reason = CAST(\(p(12)) AS TEXT),
            lease_owner = CASE WHEN \(release) THEN NULL ELSE lease_owner END,
            lease_until = CASE WHEN \(release) THEN CAST(\(p(4)) AS BIGINT) ELSE lease_until END
            """
    }

    package static func stateValues(_ state: WebhookDispatchState) -> [Value] {
        [.int(state.cursor), .optionalText(state.batchID), .optionalInt(state.batchLast), .int(state.batchAttempts), .optionalInt(state.nextAttemptAt),
         .optionalInt(state.failingSince), .int(state.enabled ? 1 : 0), .optionalText(state.disabledReason)]
    }
}
