package import NotibaseDomain
/// A message's funnel and what waits for its credentials: the statements both backends run alike
/// (``SQLExecutor``), with each dialect's JSON functions over the event details.
extension SQLExecutor {
    /// What `counting` says to count.
    package func funnel(messageSeq: Int, counting: some FunnelCounting) throws -> Funnel {
        let rules = counting.rules
        var counts = FunnelCounts()
        let seq: [SQLParameter] = [.int(messageSeq)]
        for (state, count) in try rows("SELECT state, count(*) FROM deliveries WHERE message_seq = \(p(1)) GROUP BY state", seq, { ($0.text(0), $0.int(1)) }) {
            counts.byState[state] = count
        }
        counts.sent = try count("SELECT count(*) FROM deliveries WHERE message_seq = \(p(1)) AND sent_at IS NOT NULL", seq)
        let events = "FROM delivery_events e JOIN deliveries d ON d.seq = e.delivery_seq\(dialect.sameWeek) WHERE d.message_seq = \(p(1))"
        let valid = dialect.validDetail("e.detail")
        let columns = rules.reported.map { "count(DISTINCT CASE WHEN e.event = \(SQLConstant.quoted($0.event))\(dialect.detail($0.detail)) THEN d.seq END)" }
        let reported = try first(
            """
            SELECT \(columns.joined(separator: ", "))
            \(events) AND e.event IN (\(SQLConstant.list(rules.reported.map(\.event))))\(valid)
            """, seq) { row in rules.reported.indices.map { row.int(Int32($0)) } } ?? []
        counts.reported = Dictionary(zip(rules.reported.map(\.name), reported), uniquingKeysWith: { first, _ in first })
        for (action, count) in try rows(
            "SELECT \(dialect.detailText(rules.actionKey)), count(DISTINCT d.seq) \(events) AND e.event = \(SQLConstant.quoted(rules.actionEvent))\(valid) GROUP BY 1",
            seq, { ($0.optionalText(0) ?? "", $0.int(1)) }) {
            counts.actions[action] = count
        }
        // The failure each failed delivery ended with (its last failure entry).
        let failed = SQLConstant.quoted(rules.failed)
        counts.failures = try rows(
            """
            SELECT coalesce(\((rules.reasonKeys.map(dialect.detailText) + [SQLConstant.quoted(rules.fallbackReason)]).joined(separator: ", "))), count(*),
                   max(\(dialect.detailText(rules.exampleKey))), max(\(dialect.detailText(rules.explanationKey)))
            FROM deliveries d LEFT JOIN delivery_events e ON e.seq = (
                SELECT max(seq) FROM delivery_events WHERE delivery_seq = d.seq\(dialect.weekOfDelivery) AND event = \(failed)\(dialect.validDetail("detail")))\(dialect.sameWeek)
            WHERE d.message_seq = \(p(1)) AND d.state = \(failed)
            GROUP BY 1 ORDER BY 2 DESC, 1
            """, seq) { (reason: $0.text(0), count: $0.int(1), example: $0.optionalText(2), explanation: $0.optionalText(3)) }
        return counting.funnel(counts)
    }

    /// A message's retrying deliveries whose last attempt's credentials were rejected, by platform
    /// and reason.
    package func waitingForCredentials(messageSeq: Int) throws -> [CredentialWait] {
        let reason = ["providerReason", "reason"].map(dialect.detailText) + ["'unknown'"]
        return try rows(
            """
            SELECT d.platform, coalesce(\(reason.joined(separator: ", "))), count(*), max(\(dialect.detailText("explanation")))
            FROM deliveries d JOIN delivery_events e ON e.seq = (
                SELECT max(seq) FROM delivery_events WHERE delivery_seq = d.seq\(dialect.weekOfDelivery))\(dialect.sameWeek)
            WHERE d.message_seq = \(p(1)) AND d.state = 'retrying'\(dialect.validDetail("e.detail"))\(dialect.detail(.isTrue(["credentialsRejected"])))
            GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2
            """, [.int(messageSeq)]) { CredentialWait(platform: $0.text(0), reason: $0.text(1), count: $0.int(2), explanation: $0.optionalText(3)) }
    }
}

/// The JSON of event details in each dialect: SQLite's JSON functions over details that may not be
/// JSON (they are checked first), PostgreSQL's operators over details the server always writes as
/// JSON. PostgreSQL keeps the history in weekly partitions named by the delivery's creation time,
/// so an event is joined to its delivery by that too.
extension SQLDialect {
    /// A detail's key as text (`e` the event).
    fileprivate func detailText(_ key: String) -> String {
        switch self {
        case .sqlite: "json_extract(e.detail, \(SQLConstant.quoted("$." + key)))"
        case .postgres: "e.detail::jsonb ->> \(SQLConstant.quoted(key))"
        }
    }

    /// A condition on a detail, as a clause to add to a `WHEN` or a `WHERE`.
    fileprivate func detail(_ condition: DetailCondition) -> String {
        switch (self, condition) {
        case (_, .any): ""
        case (.sqlite, .nonEmptyArray(let path)): " AND json_array_length(e.detail, \(SQLConstant.quoted("$." + path.joined(separator: ".")))) > 0"
        case (.sqlite, .isTrue(let path)): " AND json_extract(e.detail, \(SQLConstant.quoted("$." + path.joined(separator: ".")))) = 1"
        case (.postgres, .nonEmptyArray(let path)):
            " AND (CASE WHEN jsonb_typeof(\(Self.value(at: path))) = 'array' THEN jsonb_array_length(\(Self.value(at: path))) ELSE 0 END) > 0"
        case (.postgres, .isTrue(let path)): " AND (e.detail::jsonb #>> \(SQLConstant.quoted("{" + path.joined(separator: ",") + "}"))) = 'true'"
        }
    }

    private static func value(at path: [String]) -> String {
        "(e.detail::jsonb #> \(SQLConstant.quoted("{" + path.joined(separator: ",") + "}")))"
    }

    /// Whether `column` holds JSON, as a clause to add (SQLite's details may not).
    fileprivate func validDetail(_ column: String) -> String {
        self == .sqlite ? " AND json_valid(\(column))" : ""
    }

    /// The event `e` in the week of its delivery `d`, as a clause to add to their join.
    fileprivate var sameWeek: String { self == .postgres ? " AND e.delivery_created_at = d.created_at" : "" }

    /// An event of the delivery `d` in its week, as a clause to add to a subquery on the events.
    fileprivate var weekOfDelivery: String { self == .postgres ? " AND delivery_created_at = d.created_at" : "" }
}

extension MessagesStore where Self: SQLReadStore {
    package func funnel(messageSeq: Int, counting: some FunnelCounting) async throws -> Funnel {
        try await reading { try $0.funnel(messageSeq: messageSeq, counting: counting) }
    }

    package func waitingForCredentials(messageSeq: Int) async throws -> [CredentialWait] {
        try await reading { try $0.waitingForCredentials(messageSeq: messageSeq) }
    }
}
