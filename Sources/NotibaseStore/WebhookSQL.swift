import NotibaseDomain
/// Parts of the webhooks' statements both backends use (``SQLExecutor``'s `Webhooks+SQL.swift` and
/// the feeds), with the backend's parameter marks (`?N` or `$N`).
package enum WebhookSQL {
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

    /// SQLite's delivery history's last number, which an outbox row comes after (`after_event`).
    package static let afterEvent = "coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'delivery_events'), 0)"

    /// How many attempts the log keeps per endpoint.
    package static let attemptsKept = 100

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
    /// `locking` ends the statement (``SQLDialect/skippingLockedRows(of:)``).
    package static func dueEndpoints(owner: String, now: String, limit: String, slots: String, locking: String) -> String {
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

    /// The assignments of a ``WebhookDispatchState`` (parameters 4 to 12: when the lease ends, null
    /// to keep it, then the state's cursor, batch, its last event and attempts, next
    /// attempt, failing since, enabled and why not). An ended lease keeps its end (`lease_until`, with no
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
}
