import NotibaseStore

/// Signing a device out of its user, and forgetting a user (``Forgetting``).
extension SQLiteStore {
    package func removeReplyTexts(appID: String, deviceSeq: Int, limit: Int) throws -> Int {
        try connection.run(
            """
            UPDATE delivery_events SET detail = json_remove(detail, '$.text')
            WHERE seq IN (
                SELECT e.seq FROM devices v JOIN deliveries d ON d.device_seq = v.seq JOIN delivery_events e ON e.delivery_seq = d.seq
                WHERE v.seq = ? AND v.app_id = ? AND json_valid(e.detail) AND json_type(e.detail, '$.text') IS NOT NULL LIMIT ?)
            """, [.int(deviceSeq), .text(appID), .int(limit)])
    }
}
