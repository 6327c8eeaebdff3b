import NotibaseDomain

extension PendingEnd {
    /// The deliveries this ends, as a condition on `deliveries` whose parameters are numbered from
    /// `first`: those not yet sent. PostgreSQL's message batch asks each one's state again after
    /// its `LIMIT`, so one another transaction ended meanwhile is left out (SQLite's one writer
    /// runs its transactions one after the other), and names the rows by their partition key too.
    package func condition(_ dialect: SQLDialect, first n: Int) -> (String, [SQLParameter]) {
        let (p, pending) = (dialect.p, "state IN (\(Lifecycle.pendingSQL))")
        switch scope {
        case .device(let seq):
            return ("device_seq = \(p(n)) AND \(pending)", [.int(seq)])
        case .signedOut(let seq):
            let user = "EXISTS (SELECT 1 FROM messages m WHERE m.seq = deliveries.message_seq AND \(dialect.prefix(of: "m.audience", length: p(n + 1))) = \(p(n + 2)))"
            return ("device_seq = \(p(n)) AND \(pending) AND \(user)", [.int(seq), .int(Rows.userAudiencePrefix.utf8.count), .text(Rows.userAudiencePrefix)])
        case .message(let seq, let limit):
            let (key, again) = dialect == .postgres ? ("seq, created_at", " AND \(pending)") : ("seq", "")
            return ("(\(key)) IN (SELECT \(key) FROM deliveries WHERE message_seq = \(p(n)) AND \(pending) LIMIT \(p(n + 1)))\(again)", [.int(seq), .int(limit)])
        }
    }
}
