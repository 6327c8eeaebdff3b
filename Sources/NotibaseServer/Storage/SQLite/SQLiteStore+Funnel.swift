import NotibaseCore

/// A message's funnel, read on a reader's connection (or the writer's, inside its transactions: ``SQLiteReads``).
extension SQLiteReads {
    func funnel(messageSeq: Int) throws -> Funnel {
        var funnel = Funnel()
        let seq: [SQLValue] = [.int(messageSeq)]
        for row in try connection.query("SELECT state, count(*) FROM deliveries WHERE message_seq = ? GROUP BY state", seq, { ($0.text(0), $0.int(1)) }) {
            funnel.byState[row.0] = row.1
        }
        funnel.sent = try connection.first("SELECT count(*) FROM deliveries WHERE message_seq = ? AND sent_at IS NOT NULL", seq) { $0.int(0) } ?? 0
        let events = "FROM delivery_events e JOIN deliveries d ON d.seq = e.delivery_seq WHERE d.message_seq = ?"
        let counted = try connection.first(
            """
            SELECT
              count(DISTINCT CASE WHEN e.event = 'rendered' THEN d.seq END),
              count(DISTINCT CASE WHEN e.event = 'rendered' AND json_array_length(e.detail, '$.render.buttons') > 0 THEN d.seq END),
              count(DISTINCT CASE WHEN e.event = 'rendered' AND json_extract(e.detail, '$.render.imageAttached') = 1 THEN d.seq END),
              count(DISTINCT CASE WHEN e.event = 'opened' THEN d.seq END),
              count(DISTINCT CASE WHEN e.event = 'dismissed' THEN d.seq END)
            \(events) AND e.event IN ('rendered', 'opened', 'dismissed') AND json_valid(e.detail)
            """, seq) { [$0.int(0), $0.int(1), $0.int(2), $0.int(3), $0.int(4)] } ?? [0, 0, 0, 0, 0]
        (funnel.rendered, funnel.renderedWithButtons, funnel.renderedWithImage, funnel.opened, funnel.dismissed) = (counted[0], counted[1], counted[2], counted[3], counted[4])
        for row in try connection.query(
            "SELECT json_extract(e.detail, '$.actionId'), count(DISTINCT d.seq) \(events) AND e.event = 'action' AND json_valid(e.detail) GROUP BY 1",
            seq, { ($0.optionalText(0) ?? "", $0.int(1)) }) {
            funnel.actions[row.0] = row.1
        }
        // The failure each failed delivery ended with (its last `failed` event).
        funnel.failures = try connection.query(
            """
            SELECT coalesce(json_extract(e.detail, '$.providerReason'), json_extract(e.detail, '$.reason'), 'unknown'), count(*),
                   max(json_extract(e.detail, '$.reason')), max(json_extract(e.detail, '$.explanation'))
            FROM deliveries d LEFT JOIN delivery_events e ON e.seq = (
                SELECT max(seq) FROM delivery_events WHERE delivery_seq = d.seq AND event = 'failed' AND json_valid(detail))
            WHERE d.message_seq = ? AND d.state = 'failed'
            GROUP BY 1 ORDER BY 2 DESC, 1
            """, seq) { (reason: $0.text(0), count: $0.int(1), example: $0.optionalText(2), explanation: $0.optionalText(3)) }
        return funnel
    }

    func waitingForCredentials(messageSeq: Int) throws -> [CredentialWait] {
        try connection.query(
            """
            SELECT d.platform, coalesce(json_extract(e.detail, '$.providerReason'), json_extract(e.detail, '$.reason'), 'unknown'), count(*),
                   max(json_extract(e.detail, '$.explanation'))
            FROM deliveries d JOIN delivery_events e ON e.seq = (SELECT max(seq) FROM delivery_events WHERE delivery_seq = d.seq)
            WHERE d.message_seq = ? AND d.state = 'retrying' AND json_valid(e.detail) AND json_extract(e.detail, '$.credentialsRejected') = 1
            GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2
            """, [.int(messageSeq)]) { CredentialWait(platform: $0.text(0), reason: $0.text(1), count: $0.int(2), explanation: $0.optionalText(3)) }
    }
}
