package import NotibaseCore
package import NotibaseDomain

/// Statements of the rules written once (``SQLStore``) whose SQL both backends share: a backend's
/// statements give their connection (``executor``) and take these defaults; each keeps what it
/// writes differently (reading an audience, locking an idempotency key, a post's deliveries,
/// ending deliveries).
package protocol SQLStatements {
    associatedtype Executor: SQLExecutor
    /// The connection of the transaction the statements run in.
    var executor: Executor { get }
}

extension PostingStatements where Self: SQLStatements {
    package func message(appID: String, id: String) throws -> MessageRecord? { try executor.message(appID: appID, id: id) }

    package func storedBytes(appID: String) throws -> Int {
        try executor.count("SELECT stored_bytes FROM apps WHERE id = \(executor.p(1))", [.text(appID)])
    }

    package func recordKey(_ key: String, for message: NewMessage) throws {
        let p = executor.p
        _ = try executor.write(
            """
            INSERT INTO idempotency_keys (app_id, key, message_id, created_at, request_digest) VALUES (\(p(1)), \(p(2)), \(p(3)), \(p(4)), \(p(5)))
            ON CONFLICT (app_id, key) DO UPDATE
            SET message_id = excluded.message_id, created_at = excluded.created_at, request_digest = excluded.request_digest
            """, [.text(message.appID), .text(key), .text(message.id), .int(message.createdAt), .optionalText(message.requestDigest)])
    }

    package func addStoredBytes(appID: String, _ bytes: Int, ceiling: Int?) throws -> Bool {
        let (p, ceilingMark) = (executor.p, "CAST(\(executor.p(3)) AS BIGINT)")
        return try executor.write(
            "UPDATE apps SET stored_bytes = stored_bytes + \(p(1)) WHERE id = \(p(2)) AND (\(ceilingMark) IS NULL OR stored_bytes <= \(ceilingMark))",
            [.int(bytes), .text(appID), .optionalInt(ceiling)]) == 1
    }
}

extension EndingStatements where Self: SQLStatements {
    /// Locked until the commit where the backend locks rows (``SQLDialect/lockingRows``).
    package func deviceSeq(appID: String, id: String) throws -> Int? {
        let p = executor.p
        return try executor.first(
            "SELECT seq FROM devices WHERE id = \(p(1)) AND app_id = \(p(2))\(executor.dialect.lockingRows)", [.text(id), .text(appID)]) { $0.int(0) }
    }

    /// Its deliveries stay in their messages' logs, detached from it (the foreign key sets their
    /// device to null).
    package func deleteDevice(seq: Int) throws {
        _ = try executor.write("DELETE FROM devices WHERE seq = \(executor.p(1))", [.int(seq)])
    }

    /// Where the backend locks rows, the row stays locked until the commit: a registration of the
    /// same token waits, then writes over a device with no user.
    package func signOut(appID: String, platform: Platform, token: String, now: Int) throws -> Int? {
        let p = executor.p
        return try executor.first(
            "UPDATE devices SET external_user_id = NULL, updated_at = \(p(1)) WHERE app_id = \(p(2)) AND platform = \(p(3)) AND token = \(p(4)) RETURNING seq",
            [.int(now), .text(appID), .text(platform.rawValue), .text(token)]) { $0.int(0) }
    }

    /// Locked until the commit where the backend locks rows: a fan-out batch in progress is waited
    /// for; the next one finds the message cancelled and writes nothing.
    package func lockedMessage(appID: String, id: String) throws -> MessageRecord? {
        let p = executor.p
        return try executor.first(
            "SELECT \(Rows.messageColumns) FROM messages WHERE id = \(p(1)) AND app_id = \(p(2))\(executor.dialect.lockingRows)", [.text(id), .text(appID)],
            Rows.message)
    }

    package func message(seq: Int) throws -> MessageRecord? { try executor.message(seq: seq) }

    package func cancel(seq: Int, now: Int) throws {
        _ = try executor.write("UPDATE messages SET state = 'cancelled', finished_at = \(executor.p(1)) WHERE seq = \(executor.p(2))", [.int(now), .int(seq)])
    }

    package func ending(ofMessage seq: Int) throws -> Ending.Outcome? {
        try executor.first("SELECT state, failure_reason FROM messages WHERE seq = \(executor.p(1))", [.int(seq)]) {
            Ending.Outcome(state: $0.text(0), reason: $0.optionalText(1))
        } ?? nil
    }
}

extension ForgettingStatements where Self: SQLStatements {
    package func lastMessageSeq(appID: String, afterSeq: Int, limit: Int) throws -> Int? {
        let p = executor.p
        return try executor.first(
            "SELECT max(seq) FROM (SELECT seq FROM messages WHERE app_id = \(p(1)) AND seq > \(p(2)) ORDER BY seq LIMIT \(p(3))) AS looked_at",
            [.text(appID), .int(afterSeq), .int(limit)]) { $0.optionalInt(0) } ?? nil
    }

    /// Locked until the commit where the backend locks rows (``SQLDialect/lockingRows``).
    package func userAudiences(appID: String, after afterSeq: Int, upTo lastSeq: Int, containing needle: String) throws -> [(seq: Int, audience: String)] {
        let p = executor.p
        let (prefix, position) = (executor.dialect.prefix(of: "audience", length: p(4)), executor.dialect == .sqlite ? "instr" : "strpos")
        return try executor.rows(
            """
            SELECT seq, audience FROM messages WHERE app_id = \(p(1)) AND seq > \(p(2)) AND seq <= \(p(3)) AND \(prefix) = \(p(5)) AND \(position)(audience, \(p(6))) > 0
            \(executor.dialect.lockingRows)
            """, [.text(appID), .int(afterSeq), .int(lastSeq), .int(Rows.userAudiencePrefix.utf8.count), .text(Rows.userAudiencePrefix), .text(needle)]
        ) { (seq: $0.int(0), audience: $0.text(1)) }
    }

    package func rewriteAudience(seq: Int, _ audience: String) throws {
        _ = try executor.write("UPDATE messages SET audience = \(executor.p(1)) WHERE seq = \(executor.p(2))", [.text(audience), .int(seq)])
    }

    package func giveBack(storedBytes bytes: Int, appID: String) throws {
        try executor.giveBack(storedBytes: bytes, appID: appID)
    }
}
