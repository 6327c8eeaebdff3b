import NotibaseCore

/// Signing a device out of its user, and forgetting a user (``Forgetting``).
extension PostgresStore {
    func removeReplyTexts(appID: String, deviceSeq: Int, limit: Int) async throws -> Int {
        try await pool.withConnection { connection in
            try connection.run(
                """
                UPDATE delivery_events e SET detail = (e.detail::jsonb - 'text')::text
                FROM (
                    SELECT x.seq, x.delivery_created_at FROM devices v
                    JOIN deliveries d ON d.device_seq = v.seq
                    JOIN delivery_events x ON x.delivery_seq = d.seq AND x.delivery_created_at = d.created_at
                    WHERE v.seq = $1 AND v.app_id = $2 AND x.detail LIKE '%"text"%' AND x.detail::jsonb ? 'text'
                    LIMIT $3) AS picked
                WHERE e.seq = picked.seq AND e.delivery_created_at = picked.delivery_created_at
                """, [.int(deviceSeq), .text(appID), .int(limit)])
        }
    }

    func forgetUserInAudiences(appID: String, externalUserID: String, afterSeq: Int, limit: Int) async throws -> (rewritten: Int, lastSeq: Int?) {
        let needle = try Rows.storedUserID(externalUserID)
        return try await pool.transaction { connection in
            guard let last = try connection.query(
                "SELECT max(seq) FROM (SELECT seq FROM messages WHERE app_id = $1 AND seq > $2 ORDER BY seq LIMIT $3) AS looked_at",
                [.text(appID), .int(afterSeq), .int(limit)]).first({ $0.isNull(0) ? nil : $0.int(0) }) ?? nil
            else { return (0, nil) }
            let candidates = try connection.query(
                """
                SELECT seq, audience FROM messages
                WHERE app_id = $1 AND seq > $2 AND seq <= $3 AND left(audience, $4) = $5 AND strpos(audience, $6) > 0
                FOR UPDATE
                """, [.text(appID), .int(afterSeq), .int(last), .int(Rows.userAudiencePrefix.count), .text(Rows.userAudiencePrefix), .text(needle)]
            ).map { (seq: $0.int(0), audience: $0.text(1)) }
            let (rewrites, saved) = try Forgetting.rewrites(candidates, forgetting: externalUserID)
            for rewrite in rewrites {
                try connection.run("UPDATE messages SET audience = $1 WHERE seq = $2", [.text(rewrite.audience), .int(rewrite.seq)])
            }
            if saved != 0 {
                try connection.run("UPDATE apps SET stored_bytes = greatest(0, stored_bytes - $1) WHERE id = $2", [.int(saved), .text(appID)])
            }
            return (rewrites.count, last)
        }
    }
}
