/// The rules of storing posted messages, decided without I/O: which earlier use of an idempotency
/// key is replayed, whether a post's deliveries are written with it, how much of the claim's room
/// each post gets, and whether a message fits its app's stored-bytes quota. ``Posting`` runs it on
/// a store's statements, in one transaction per group (decision 0032).
///
/// The quota is checked against each app's count as read once per group, unlocked, plus what the
/// group's earlier posts add; the group's additions are written last, one update per app that
/// holds the app's row only from there to the commit. That update is guarded (``Addition/ceiling``):
/// when other transactions committed meanwhile so that a post of the group no longer fits, it
/// changes nothing and the group is refused, to be tried again post by post (``GroupCommit``), each
/// then checked against the count as it is. So no app ever stores past its quota, on either backend.
package struct PostingPlan: Sendable {
    /// The stored bytes a group adds to one app, written at its end.
    package struct Addition: Equatable, Sendable {
        package var appID: String
        package var bytes: Int
        /// The largest count the app's row may hold for every post admitted against a limit to
        /// still fit (nil: no post of the group had a limit): the update's guard.
        package var ceiling: Int?
        /// The smallest limit a post of the group was admitted against (for the refusal).
        package var limit: Int?
    }

    private struct AppBytes {
        /// The app's count as read (nil: not read yet).
        package var stored: Int?
        package var addition: Addition
    }

    private let claim: FanOutClaim?
    private var room: Int
    private var apps: [String: AppBytes] = [:]

    /// A group whose deliveries may claim up to `claim`'s limit for this node.
    package init(claim: FanOutClaim?) {
        self.claim = claim
        room = claim?.limit ?? 0
    }

    // MARK: Idempotency

    /// Whether `earlier`, the key's stored use, is within `window` of `message`: its message is
    /// then looked for, and replayed if it is still stored (``replay(_:of:found:)``).
    package static func looksUp(_ earlier: StoredIdempotencyKey, for message: NewMessage, window: Int) -> Bool {
        earlier.createdAt > message.createdAt - window
    }

    /// The message an earlier use of the key stored, replayed (nil when retention removed it: the
    /// post is stored anew); throws ``IdempotencyKeyReused`` when `message` is another request (another
    /// digest) than the one that stored it.
    package static func replay(_ earlier: StoredIdempotencyKey, of message: NewMessage, found: MessageRecord?) throws(IdempotencyKeyReused) -> MessageRecord? {
        guard let found else { return nil }
        try earlier.check(message)
        return found
    }

    // MARK: Write now, and the claim

    /// Whether a post's deliveries are written with it: its audience is within its limit (a larger
    /// one is left to the fan-out loop).
    package static func writesNow(_ post: PostedMessage, audienceSize: Int) -> Bool {
        audienceSize <= post.limit
    }

    /// How many devices a store reads to count a post's audience when it may keep them for its
    /// deliveries: one more than the limit tells a larger audience apart.
    package static func reading(_ post: PostedMessage) -> Int { post.limit + 1 }

    /// What the next post's deliveries may claim: the room the group's earlier posts left.
    package var nextClaim: FanOutClaim? {
        guard let claim, room > 0 else { return nil }
        return FanOutClaim(lease: claim.lease, limit: room)
    }

    /// A post's deliveries claimed `count` of the room.
    package mutating func claimed(_ count: Int) { room -= count }

    // MARK: The stored-bytes quota

    /// Whether the app's count must be read before `message` is admitted.
    package func needsStoredBytes(for message: NewMessage) -> Bool {
        message.storedBytesLimit != nil && apps[message.appID]?.stored == nil
    }

    /// The app's count as read.
    package mutating func read(storedBytes: Int, appID: String) {
        apps[appID, default: AppBytes(addition: Addition(appID: appID, bytes: 0))].stored = storedBytes
    }

    /// Counts `message` against its app's quota, or throws ``StoredBytesExceeded`` (the post is
    /// then refused before it writes anything). Its bytes are added at the group's end
    /// (``additions``).
    package mutating func admit(_ message: NewMessage) throws(StoredBytesExceeded) {
        var app = apps[message.appID] ?? AppBytes(addition: Addition(appID: message.appID, bytes: 0))
        if let limit = message.storedBytesLimit {
            let used = (app.stored ?? 0) + app.addition.bytes
            guard used + message.storedBytes <= limit else { throw StoredBytesExceeded(used: used, limit: limit, message: message.storedBytes) }
            let ceiling = limit - app.addition.bytes - message.storedBytes
            app.addition.ceiling = min(app.addition.ceiling ?? ceiling, ceiling)
            app.addition.limit = min(app.addition.limit ?? limit, limit)
        }
        app.addition.bytes += message.storedBytes
        apps[message.appID] = app
    }

    /// What the group adds, one per app, in the apps' order (the order their rows are locked in).
    package var additions: [Addition] {
        apps.values.map(\.addition).filter { $0.bytes != 0 }.sorted { $0.appID < $1.appID }
    }
}
