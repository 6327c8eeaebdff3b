import NotibaseCore

/// Signing a device out of its user, and forgetting a user (``Forgetting``).
extension SQLiteStore {
    func removeReplyTexts(appID: String, deviceSeq: Int, limit: Int) throws -> Int {
        try connection.run(
            """
            UPDATE delivery_events SET detail = json_remove(detail, '$.text')
            WHERE seq IN (
                SELECT e.seq FROM devices v JOIN deliveries d ON d.device_seq = v.seq JOIN delivery_events e ON e.delivery_seq = d.seq
                WHERE v.seq = ? AND v.app_id = ? AND json_valid(e.detail) AND json_type(e.detail, '$.text') IS NOT NULL LIMIT ?)
            """, [.int(deviceSeq), .text(appID), .int(limit)])
    }

    func forgetUserInAudiences(appID: String, externalUserID: String, afterSeq: Int, limit: Int) throws -> (rewritten: Int, lastSeq: Int?) {
        try connection.transaction {
            guard let last = try connection.first(
                "SELECT max(seq) FROM (SELECT seq FROM messages WHERE app_id = ? AND seq > ? ORDER BY seq LIMIT ?)",
                [.text(appID), .int(afterSeq), .int(limit)], { $0.isNull(0) ? nil : $0.int(0) }) ?? nil
            else { return (0, nil) }
            let candidates = try connection.query(
                """
                SELECT seq, audience FROM messages
                WHERE app_id = ? AND seq > ? AND seq <= ? AND substr(audience, 1, ?) = ? AND instr(audience, ?) > 0
                """, [.text(appID), .int(afterSeq), .int(last), .int(Rows.userAudiencePrefix.utf8.count), .text(Rows.userAudiencePrefix),
                      .text(try Rows.storedUserID(externalUserID))]) { (seq: $0.int(0), audience: $0.text(1)) }
            let (rewrites, saved) = try Forgetting.rewrites(candidates, forgetting: externalUserID)
            for rewrite in rewrites {
                try connection.run("UPDATE messages SET audience = ? WHERE seq = ?", [.text(rewrite.audience), .int(rewrite.seq)])
            }
            if saved != 0 {
                try connection.run("UPDATE apps SET stored_bytes = max(0, stored_bytes - ?) WHERE id = ?", [.int(saved), .text(appID)])
            }
            return (rewrites.count, last)
        }
    }
}
