/// An app's idempotency key as stored (`idempotency_keys`): the message it stored, when, and the
/// digest of the request that stored it (nil for a key stored before digests were kept).
struct StoredIdempotencyKey: Sendable {
    var messageID: String
    var createdAt: Int
    var digest: String?

    /// Throws ``IdempotencyKeyReused`` when `message` asks for something else than the request
    /// that stored the key; a key or a message without a digest is not compared (it replays).
    func check(_ message: NewMessage) throws(IdempotencyKeyReused) {
        if let digest, let asked = message.requestDigest, asked != digest {
            throw IdempotencyKeyReused(messageID: messageID)
        }
    }
}
