import NotibaseStore

/// Signing a device out of its user, and forgetting a user (``Forgetting``).
extension PostgresStore {
    package func removeReplyTexts(appID: String, deviceSeq: Int, limit: Int) async throws -> Int {
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
}
