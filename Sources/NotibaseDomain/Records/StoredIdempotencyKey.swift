/// An app's idempotency key as stored (`idempotency_keys`): the message it stored, when, and the
/// digest of the request that stored it (nil for a key stored before digests were kept).
package struct StoredIdempotencyKey: Sendable {
    package var messageID: String
    package var createdAt: Int
    package var digest: String?

    /// Throws ``IdempotencyKeyReused`` when `message` asks for something else than the request
    /// that stored the key; a key or a message without a digest is not compared (it replays).
    package func check(_ message: NewMessage) throws(IdempotencyKeyReused) {
        if let digest, let asked = message.requestDigest, asked != digest {
            throw IdempotencyKeyReused(messageID: messageID)
        }
    }

    package init(messageID: String, createdAt: Int, digest: String? = nil) {
        self.messageID = messageID
        self.createdAt = createdAt
        self.digest = digest
    }
}
