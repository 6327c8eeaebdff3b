/// A send whose idempotency key the app used within its window for another request (another
/// ``NewMessage/requestDigest``): the store refused it and stored nothing. A key stored without a
/// digest (before SQLite's schema 11, PostgreSQL's 13) replays whatever comes with it.
package struct IdempotencyKeyReused: Error, Sendable {
    /// The message the key stored.
    package var messageID: String
}
