import NotibaseCore

/// A message's funnel, read on a reader's connection (or the writer's, inside its transactions: ``SQLiteReads``).
extension SQLiteReads {
    /// What `counting` says to count, in SQLite's SQL (its JSON functions over details it can read).
    func funnel(messageSeq: Int, counting: some FunnelCounting) throws -> Funnel {
        let rules = counting.rules
        var counts = FunnelCounts()
        let seq: [SQLValue] = [.int(messageSeq)]
        for row in try connection.query("SELECT state, count(*) FROM deliveries WHERE message_seq = ? GROUP BY state", seq, { ($0.text(0), $0.int(1)) }) {
            counts.byState[row.0] = row.1
        }
        counts.sent = try connection.first("SELECT count(*) FROM deliveries WHERE message_seq = ? AND sent_at IS NOT NULL", seq) { $0.int(0) } ?? 0
        let events = "FROM delivery_events e JOIN deliveries d ON d.seq = e.delivery_seq WHERE d.message_seq = ?"
        let columns = rules.reported.map { "count(DISTINCT CASE WHEN e.event = \(SQLConstant.quoted($0.event))\(Self.sql($0.detail)) THEN d.seq END)" }
        let reported = try connection.first(
            """
            SELECT \(columns.joined(separator: ", "))
            \(events) AND e.event IN (\(SQLConstant.list(rules.reported.map(\.event)))) AND json_valid(e.detail)
            """, seq) { row in rules.reported.indices.map { row.int(Int32($0)) } } ?? []
        counts.reported = Dictionary(zip(rules.reported.map(\.name), reported), uniquingKeysWith: { first, _ in first })
        for row in try connection.query(
            "SELECT \(Self.text(rules.actionKey)), count(DISTINCT d.seq) \(events) AND e.event = \(SQLConstant.quoted(rules.actionEvent)) AND json_valid(e.detail) GROUP BY 1",
            seq, { ($0.optionalText(0) ?? "", $0.int(1)) }) {
            counts.actions[row.0] = row.1
        }
        // The failure each failed delivery ended with (its last failure entry).
        let failed = SQLConstant.quoted(rules.failed)
        counts.failures = try connection.query(
            """
            SELECT coalesce(\((rules.reasonKeys.map(Self.text) + [SQLConstant.quoted(rules.fallbackReason)]).joined(separator: ", "))), count(*),
                   max(\(Self.text(rules.exampleKey))), max(\(Self.text(rules.explanationKey)))
            FROM deliveries d LEFT JOIN delivery_events e ON e.seq = (
                SELECT max(seq) FROM delivery_events WHERE delivery_seq = d.seq AND event = \(failed) AND json_valid(detail))
            WHERE d.message_seq = ? AND d.state = \(failed)
            GROUP BY 1 ORDER BY 2 DESC, 1
            """, seq) { (reason: $0.text(0), count: $0.int(1), example: $0.optionalText(2), explanation: $0.optionalText(3)) }
        return counting.funnel(counts)
    }

    /// A detail's key as text.
    private static func text(_ key: String) -> String { "json_extract(e.detail, \(SQLConstant.quoted("$." + key)))" }

    /// A condition on a detail, as a clause to add to a `WHEN`.
    private static func sql(_ condition: DetailCondition) -> String {
        switch condition {
        case .any: ""
        case .nonEmptyArray(let path): " AND json_array_length(e.detail, \(SQLConstant.quoted("$." + path.joined(separator: ".")))) > 0"
        case .isTrue(let path): " AND json_extract(e.detail, \(SQLConstant.quoted("$." + path.joined(separator: ".")))) = 1"
        }
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
