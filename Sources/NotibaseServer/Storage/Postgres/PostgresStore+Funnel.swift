import NotibaseCore

extension PostgresStore {
    /// What `counting` says to count, in PostgreSQL's SQL (its JSON operators on the event details,
    /// which the server always writes as JSON).
    func funnel(messageSeq: Int, counting: some FunnelCounting) async throws -> Funnel {
        let rules = counting.rules
        let counts = try await pool.withConnection { connection in
            var counts = FunnelCounts()
            let seq: [PostgresValue] = [.int(messageSeq)]
            for (state, count) in try connection.query("SELECT state, count(*) FROM deliveries WHERE message_seq = $1 GROUP BY state", seq).map({ ($0.text(0), $0.int(1)) }) {
                counts.byState[state] = count
            }
            counts.sent = try connection.query("SELECT count(*) FROM deliveries WHERE message_seq = $1 AND sent_at IS NOT NULL", seq).first { $0.int(0) } ?? 0
            let events = "FROM delivery_events e JOIN deliveries d ON d.seq = e.delivery_seq AND d.created_at = e.delivery_created_at WHERE d.message_seq = $1"
            let columns = rules.reported.map { "count(DISTINCT CASE WHEN e.event = \(SQLConstant.quoted($0.event))\(Self.sql($0.detail)) THEN d.seq END)" }
            let reported = try connection.query(
                """
                SELECT \(columns.joined(separator: ", "))
                \(events) AND e.event IN (\(SQLConstant.list(rules.reported.map(\.event))))
                """, seq).first { row in rules.reported.indices.map { row.int(Int32($0)) } } ?? []
            counts.reported = Dictionary(zip(rules.reported.map(\.name), reported), uniquingKeysWith: { first, _ in first })
            for (action, count) in try connection.query(
                "SELECT \(Self.text(rules.actionKey)), count(DISTINCT d.seq) \(events) AND e.event = \(SQLConstant.quoted(rules.actionEvent)) GROUP BY 1", seq
            ).map({ ($0.optionalText(0) ?? "", $0.int(1)) }) {
                counts.actions[action] = count
            }
            // The failure each failed delivery ended with (its last failure entry).
            let failed = SQLConstant.quoted(rules.failed)
            counts.failures = try connection.query(
                """
                SELECT coalesce(\((rules.reasonKeys.map(Self.text) + [SQLConstant.quoted(rules.fallbackReason)]).joined(separator: ", "))), count(*),
                       max(\(Self.text(rules.exampleKey))), max(\(Self.text(rules.explanationKey)))
                FROM deliveries d LEFT JOIN delivery_events e ON e.delivery_created_at = d.created_at AND e.seq = (
                    SELECT max(seq) FROM delivery_events WHERE delivery_seq = d.seq AND delivery_created_at = d.created_at AND event = \(failed))
                WHERE d.message_seq = $1 AND d.state = \(failed)
                GROUP BY 1 ORDER BY 2 DESC, 1
                """, seq).map { (reason: $0.text(0), count: $0.int(1), example: $0.optionalText(2), explanation: $0.optionalText(3)) }
            return counts
        }
        return counting.funnel(counts)
    }

    /// A detail's key as text.
    private static func text(_ key: String) -> String { "e.detail::jsonb ->> \(SQLConstant.quoted(key))" }

    /// A condition on a detail, as a clause to add to a `WHEN`.
    private static func sql(_ condition: DetailCondition) -> String {
        switch condition {
        case .any:
            return ""
        case .nonEmptyArray(let path):
            let value = "(e.detail::jsonb #> \(SQLConstant.quoted("{" + path.joined(separator: ",") + "}")))"
            return " AND (CASE WHEN jsonb_typeof(\(value)) = 'array' THEN jsonb_array_length(\(value)) ELSE 0 END) > 0"
        case .isTrue(let path):
            return " AND (e.detail::jsonb #>> \(SQLConstant.quoted("{" + path.joined(separator: ",") + "}"))) = 'true'"
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
