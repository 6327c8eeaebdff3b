import NotibaseCore

extension PostgresStore {
    /// A message's funnel (the same counts as SQLite's, with PostgreSQL's JSON operators on the
    /// event details, which the server always writes as JSON).
    func funnel(messageSeq: Int) async throws -> Funnel {
        try await pool.withConnection { connection in
            var funnel = Funnel()
            let seq: [PostgresValue] = [.int(messageSeq)]
            for (state, count) in try connection.query("SELECT state, count(*) FROM deliveries WHERE message_seq = $1 GROUP BY state", seq).map({ ($0.text(0), $0.int(1)) }) {
                funnel.byState[state] = count
            }
            funnel.sent = try connection.query("SELECT count(*) FROM deliveries WHERE message_seq = $1 AND sent_at IS NOT NULL", seq).first { $0.int(0) } ?? 0
            let events = "FROM delivery_events e JOIN deliveries d ON d.seq = e.delivery_seq AND d.created_at = e.delivery_created_at WHERE d.message_seq = $1"
            let buttons = "(e.detail::jsonb #> '{render,buttons}')"
            let counted = try connection.query(
                """
                SELECT
                  count(DISTINCT CASE WHEN e.event = 'rendered' THEN d.seq END),
                  count(DISTINCT CASE WHEN e.event = 'rendered'
                      AND (CASE WHEN jsonb_typeof(\(buttons)) = 'array' THEN jsonb_array_length(\(buttons)) ELSE 0 END) > 0 THEN d.seq END),
                  count(DISTINCT CASE WHEN e.event = 'rendered' AND (e.detail::jsonb #>> '{render,imageAttached}') = 'true' THEN d.seq END),
                  count(DISTINCT CASE WHEN e.event = 'opened' THEN d.seq END),
                  count(DISTINCT CASE WHEN e.event = 'dismissed' THEN d.seq END)
                \(events) AND e.event IN ('rendered', 'opened', 'dismissed')
                """, seq).first { [$0.int(0), $0.int(1), $0.int(2), $0.int(3), $0.int(4)] } ?? [0, 0, 0, 0, 0]
            (funnel.rendered, funnel.renderedWithButtons, funnel.renderedWithImage, funnel.opened, funnel.dismissed) = (counted[0], counted[1], counted[2], counted[3], counted[4])
            for (action, count) in try connection.query(
                "SELECT e.detail::jsonb ->> 'actionId', count(DISTINCT d.seq) \(events) AND e.event = 'action' GROUP BY 1", seq
            ).map({ ($0.optionalText(0) ?? "", $0.int(1)) }) {
                funnel.actions[action] = count
            }
            // The failure each failed delivery ended with (its last `failed` event).
            funnel.failures = try connection.query(
                """
                SELECT coalesce(e.detail::jsonb ->> 'providerReason', e.detail::jsonb ->> 'reason', 'unknown'), count(*),
                       max(e.detail::jsonb ->> 'reason'), max(e.detail::jsonb ->> 'explanation')
                FROM deliveries d LEFT JOIN delivery_events e ON e.delivery_created_at = d.created_at AND e.seq = (
                    SELECT max(seq) FROM delivery_events WHERE delivery_seq = d.seq AND delivery_created_at = d.created_at AND event = 'failed')
                WHERE d.message_seq = $1 AND d.state = 'failed'
                GROUP BY 1 ORDER BY 2 DESC, 1
                """, seq).map { (reason: $0.text(0), count: $0.int(1), example: $0.optionalText(2), explanation: $0.optionalText(3)) }
            return funnel
        }
    }

    func waitingForCredentials(messageSeq: Int) async throws -> [CredentialWait] {
        try await pool.withConnection { connection in
            try connection.query(
                """
                SELECT d.platform, coalesce(e.detail::jsonb ->> 'providerReason', e.detail::jsonb ->> 'reason', 'unknown'), count(*),
                       max(e.detail::jsonb ->> 'explanation')
                FROM deliveries d JOIN delivery_events e ON e.delivery_created_at = d.created_at AND e.seq = (
                    SELECT max(seq) FROM delivery_events WHERE delivery_seq = d.seq AND delivery_created_at = d.created_at)
                WHERE d.message_seq = $1 AND d.state = 'retrying' AND (e.detail::jsonb ->> 'credentialsRejected') = 'true'
                GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2
                """, [.int(messageSeq)]).map { CredentialWait(platform: $0.text(0), reason: $0.text(1), count: $0.int(2), explanation: $0.optionalText(3)) }
        }
    }
}
