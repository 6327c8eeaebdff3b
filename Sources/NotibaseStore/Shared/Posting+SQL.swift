package import NotibaseDomain

/// A message stored and an idempotency key read, alike on both backends (``SQLExecutor``).
extension SQLExecutor {
    /// The app's stored use of `key`, unlocked (``PostingStatements/idempotencyKey(appID:key:)``
    /// says when a backend holds it).
    package func idempotencyKey(appID: String, key: String) throws -> StoredIdempotencyKey? {
        try first("SELECT message_id, created_at, request_digest FROM idempotency_keys WHERE app_id = \(p(1)) AND key = \(p(2))", [.text(appID), .text(key)]) {
            StoredIdempotencyKey(messageID: $0.text(0), createdAt: $0.int(1), digest: $0.optionalText(2))
        }
    }

    /// Inserts the message `scheduled`; returns its number.
    package func insert(_ message: NewMessage) throws -> Int {
        let marks = (1...9).map(p).joined(separator: ", ")
        guard let seq = try first(
            "INSERT INTO messages (id, app_id, content, audience, state, send_at, audience_size, created_at, pacing) VALUES (\(marks)) RETURNING seq",
            [.text(message.id), .text(message.appID), .text(message.storedContent), .text(message.storedAudience), .text(MessageState.scheduled.rawValue),
             .int(message.sendAt), .int(message.audienceSize), .int(message.createdAt), .optionalText(try message.pacing.map(StoredJSON.encode))], { $0.int(0) })
        else { throw StorageError.corrupt("message insert returned nothing") }
        return seq
    }
}
