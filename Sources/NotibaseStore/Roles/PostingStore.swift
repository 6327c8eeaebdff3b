package import NotibaseCore
package import NotibaseDomain

/// What a send asks of the store (``MessageService``): how many devices an audience reaches, and
/// storing the message, with its deliveries when it is due now to a short list.
package protocol PostingStore: Sendable {
    func audienceSize(appID: String, _ audience: Audience) async throws -> Int
    /// How many of `users` (external user IDs) have an active device of the app now: what an
    /// `externalUserIds` audience's count says of the IDs that match nobody.
    func matchedExternalUsers(appID: String, _ users: [String]) async throws -> Int
    /// The same devices counted by time zone (nil: registered without one).
    func audienceByTimeZone(appID: String, _ audience: Audience) async throws -> [String?: Int]
    /// Whether an audience has at least one active device on `platform` (a send that warns
    /// about that platform's credentials asks).
    func audienceReaches(appID: String, _ audience: Audience, platform: Platform) async throws -> Bool
    /// Stores a message, or, when the app used `idempotencyKey` within `window` milliseconds,
    /// answers the message it stored then (`replayed`), and throws ``IdempotencyKeyReused`` (storing
    /// nothing) when that was for another request (``NewMessage/requestDigest``). Two sends with
    /// one key at once store one message.
    func createMessage(_ message: NewMessage, idempotencyKey: String?, window: Int) async throws -> (MessageRecord, replayed: Bool)
    /// Stores new messages due now (``PostedMessage``), in one transaction (a group commit), each
    /// with its audience counted (the message's `audienceSize` is ignored) and, when at most its
    /// `limit` devices match, all its deliveries written as
    /// ``FanOutStore/fanOutBatch(messageSeq:audience:limit:now:claim:plan:)`` would, decided by its `plan`
    /// (the message then `sending`, or `completed` when none matched): the one-device message is one write, shared
    /// with the others that arrive with it. With `claim`, up to `claim.limit` of the deliveries
    /// written, over all the messages, are written claimed by the caller and come back with their
    /// outcomes. A message the app's stored-bytes quota refuses (``StoredBytesExceeded``), or whose
    /// idempotency key another request stored (``IdempotencyKeyReused``), is a failure of its own
    /// and changes nothing; any other error fails the whole group, which then changed nothing.
    func createMessagesWithDeliveries(_ posts: [PostedMessage], claim: FanOutClaim?) async throws -> [Result<PostedMessage.Outcome, any Error>]
    /// How many groups of ``createMessagesWithDeliveries(_:claim:)`` are worth committing at once:
    /// 1 for a single writer; more where transactions run side by side.
    var groupCommitsAtOnce: Int { get }
}
