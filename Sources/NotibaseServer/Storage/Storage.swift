import NotibaseCore

/// What the server stores and asks of its database, in its own terms. ``SQLiteStore`` implements
/// it on embedded SQLite; another backend (PostgreSQL) implements the same requirements, with the
/// same guarantees: each method is atomic, fan-out batches and their cursor commit together, and a
/// claim is a lease that ends by itself. What only one backend needs (SQLite's checkpoints) stays
/// inside it; the server holds `any Storage` and knows nothing of SQL.
protocol Storage: KeyDirectory, WebhookStorage {
    // Settings
    func setting(_ name: String) async throws -> [UInt8]?
    func insertSettingIfAbsent(_ name: String, _ value: [UInt8]) async throws -> Bool
    func replaceSetting(_ name: String, _ value: [UInt8]) async throws
    /// Ends what the backend runs in the background and leaves the database tidy (on shutdown).
    func close() async throws
    /// Calls `wake` whenever a node sharing the database announces work, until ``close()``;
    /// returns whether the backend carries such announcements (PostgreSQL's LISTEN/NOTIFY). Only
    /// a wake-up: the nodes still look for work on their own. A backend one node uses alone
    /// (SQLite) has nothing to hear and returns false.
    func listen(_ wake: @escaping @Sendable (AnnouncedWork) -> Void) -> Bool
    /// How long one fan-out batch should take at most (``BatchPacing``): what waits for it. On
    /// SQLite everything does (one connection), so it is short; on PostgreSQL only the fan-out
    /// does, and short batches cost it a commit each.
    var fanOutBatchTarget: Duration { get }
    func queueDepth() async throws -> Int
    /// What is wrong with the stored data (orphans, dangling references, rules no constraint
    /// states); empty when all is well. Reads only.
    func integrityProblems() async throws -> [String]

    // Apps, keys, credentials
    func createApp(id: String, name: String, serverKeyHash: [UInt8], clientKeyHash: [UInt8], requireIdentityVerification: Bool, now: Int) async throws -> AppRecord
    func apps() async throws -> [AppRecord]
    func app(_ id: String) async throws -> AppRecord?
    /// Changes what is given; `pacing` replaces the app's quiet hours and default rate whole.
    func updateApp(_ id: String, name: String?, requireIdentityVerification: Bool?, pacing: AppPacing?) async throws -> AppRecord?
    /// Deletes the app and everything of it, in one transaction.
    func deleteApp(_ id: String) async throws -> Bool
    func replaceKey(appID: String, kind: KeyKind, hash: [UInt8]) async throws -> Bool
    func putCredentials(appID: String, provider: String, sealed: [UInt8], summary: String, now: Int) async throws
    func deleteCredentials(appID: String, provider: String) async throws -> Bool
    func credentials(appID: String) async throws -> [CredentialRecord]
    /// Stores how sending with an app's credentials for `provider` went, when the app's
    /// credentials are still those of `revision` (replaced ones are `untested` again, whatever
    /// their last sends said); returns whether it did.
    func recordCredentialHealth(appID: String, provider: String, revision: Int, _ health: CredentialHealth) async throws -> Bool
    /// Stores a credential test's state or result (``CredentialTestResult``, as JSON) when the
    /// app's credentials for `provider` are still the very ones tested (`sealed`, whose nonce
    /// differs at every upload): a test of replaced credentials never marks the new ones. Returns
    /// whether it did.
    func recordCredentialTest(appID: String, provider: String, sealed: [UInt8], _ result: String) async throws -> Bool

    // Devices
    /// Writes registrations that arrived together (of any apps) in one transaction, running their
    /// ``RegistrationPlan``'s steps in order: each device inserted with its `newID`, or the one with
    /// the same app, platform and token updated and reactivated. Answers each in the group's order;
    /// throws, having written nothing, when any of them fails (a device stored with another verified
    /// user refuses its registration: ``DeviceUpsert/claimedByAnotherUser``).
    func registerDevices(together group: [GroupedRegistration]) async throws -> [RegisteredDevice]
    func registerDevices(appID: String, _ registrations: [(DeviceUpsert, newID: String)], now: Int) async throws -> Int
    func device(appID: String, id: String) async throws -> DeviceRecord?
    /// A page of the app's devices that `filter` selects, in `seq` order either way.
    func devices(appID: String, filter: DeviceFilter, page: SeqPage) async throws -> [DeviceRecord]
    /// How many of the app's devices `filter` selects: a count of the app's devices (a bulk read).
    func deviceCount(appID: String, filter: DeviceFilter) async throws -> Int
    /// Deletes a device; its deliveries not yet sent fail.
    func deleteDevice(appID: String, id: String, now: Int) async throws -> Bool
    /// Clears the external user ID of the app's device registered under `platform` and `token`, in
    /// one transaction, and ends as `cancelled` its deliveries not yet sent of messages addressed by
    /// `externalUserIds` (they were meant for the user who signed out). Returns those deliveries'
    /// numbers (a node drops them from its ``Handoff``), or nil when the app has no such device. A
    /// fan-out that starts after it commits no longer finds the device by its user.
    func signOut(appID: String, platform: Platform, token: String, now: Int) async throws -> [Int]?
    /// Removes the text typed into a reply field (`text`) from up to `limit` history entries of the
    /// deliveries to the app's device `deviceSeq`, in one transaction; returns how many; 0 when none
    /// is left. What else the entries say stays.
    func removeReplyTexts(appID: String, deviceSeq: Int, limit: Int) async throws -> Int
    /// Looks at up to `limit` of the app's messages after `afterSeq` (in order) and replaces
    /// `externalUserID` by `""` (which no device can have) in the audiences that list it, in one
    /// transaction, keeping the app's count of stored bytes. Returns how many it rewrote and the last
    /// message it looked at (nil when there was none left).
    func forgetUserInAudiences(appID: String, externalUserID: String, afterSeq: Int, limit: Int) async throws -> (rewritten: Int, lastSeq: Int?)

    // Messages
    func audienceSize(appID: String, _ audience: Audience) async throws -> Int
    /// How many of `users` (external user IDs) have an active device of the app now: what an
    /// `externalUserIds` audience's count says of the IDs that match nobody.
    func matchedExternalUsers(appID: String, _ users: [String]) async throws -> Int
    /// The same devices counted by time zone (nil: registered without one).
    func audienceByTimeZone(appID: String, _ audience: Audience) async throws -> [String?: Int]
    /// Stores a message, or, when the app used `idempotencyKey` within `window` milliseconds,
    /// answers the message it stored then (`replayed`), and throws ``IdempotencyKeyReused`` (storing
    /// nothing) when that was for another request (``NewMessage/requestDigest``). Two sends with
    /// one key at once store one message.
    func createMessage(_ message: NewMessage, idempotencyKey: String?, window: Int) async throws -> (MessageRecord, replayed: Bool)
    /// Stores new messages due now (``PostedMessage``), in one transaction (a group commit), each
    /// with its audience counted (the message's `audienceSize` is ignored) and, when at most its
    /// `limit` devices match, all its deliveries written as
    /// ``fanOutBatch(messageSeq:audience:limit:now:claim:plan:)`` would, decided by its `plan`
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
    /// Whether an audience has at least one active device on `platform` (a send that warns
    /// about that platform's credentials asks).
    func audienceReaches(appID: String, _ audience: Audience, platform: Platform) async throws -> Bool
    func message(appID: String, id: String) async throws -> MessageRecord?
    func message(seq: Int) async throws -> MessageRecord?
    /// The messages of these numbers that are stored, in one read (a worker's batch).
    func messages(seqs: [Int]) async throws -> [MessageRecord]
    /// A page of the app's messages, in `seq` order either way.
    func messages(appID: String, page: SeqPage) async throws -> [MessageRecord]
    /// How many messages the app has stored: a count of its messages (a bulk read).
    func messageCount(appID: String) async throws -> Int
    func deliveryCounts(messageSeq: Int) async throws -> [(state: String, platform: String, count: Int)]
    /// How many of a message's deliveries wait for a later moment (queued, never tried, due after
    /// `now`: their local time, quiet hours or their turn at the rate), and when the last is due.
    func waitingDeliveries(messageSeq: Int, now: Int) async throws -> (count: Int, lastDueAt: Int?)
    /// A message's funnel: deliveries by state, what devices reported, failures by reason, counted as
    /// `counting` says (the caller passes the funnel's rules).
    func funnel(messageSeq: Int, counting: some FunnelCounting) async throws -> Funnel
    /// A message's deliveries retrying because the provider refused the app's credentials, by
    /// platform and reason (the provider's, as their last history entry says).
    func waitingForCredentials(messageSeq: Int) async throws -> [CredentialWait]
    /// Marks a message that has not finished `cancelled` (with `finished_at`), in one short
    /// transaction, and returns it as it is afterwards (nil when the app has no such message): from
    /// then on no fan-out batch writes more of it and no claim hands out its deliveries. Its
    /// deliveries not yet sent are ended afterwards, in short steps
    /// (``endPendingDeliveries(messageSeq:limit:now:)``); ``cancelMessage(appID:id:now:)`` does both.
    func markCancelled(appID: String, id: String, now: Int) async throws -> MessageRecord?
    /// Ends up to `limit` deliveries not yet sent (``Lifecycle/pending``) of a cancelled or failed
    /// message, in one transaction, as the message ended: `cancelled`, or `failed` with the
    /// message's reason, each with its history event. Returns how many; 0 when none is left, or
    /// when the message is not cancelled or failed.
    func endPendingDeliveries(messageSeq: Int, limit: Int, now: Int) async throws -> Int
    /// Cancelled or failed messages that still have deliveries due by `now` among the `window`
    /// earliest due (a cancel or a failure that stopped before ending them all): what
    /// ``endAbandonedDeliveries(now:)`` finishes.
    func abandonedMessages(now: Int, window: Int) async throws -> [Int]

    // The queue
    func messagesToFanOut(now: Int, limit: Int) async throws -> [MessageRecord]
    /// Marks a message that has not finished `failed` with `reason` (and `finished_at`), in one
    /// short transaction; returns whether it did. Its deliveries not yet sent are ended afterwards
    /// (``endPendingDeliveries(messageSeq:limit:now:)``); ``failMessage(seq:reason:now:)`` does both.
    func markFailed(seq: Int, reason: String, now: Int) async throws -> Bool
    /// Completes every `sending` message with no delivery left to send. Writers complete their own
    /// messages as they go; this catches the ones two concurrent transactions each left to the
    /// other (on PostgreSQL, a last fan-out batch and a worker's record, neither seeing the other).
    func completeFinishedMessages(now: Int) async throws -> Int
    /// Readies the delivery history for the weeks ahead of `now`: PostgreSQL makes the time
    /// partitions its history is kept in (safe on several nodes at once); SQLite has nothing to do.
    func prepareHistory(now: Int) async throws
    /// Drops, a whole time partition at a time, the history retention no longer keeps (deliveries,
    /// events and receipts of messages that all finished before `finishedBefore`); returns how many
    /// partitions. 0 on a backend that keeps its history in one table (SQLite).
    func dropExpiredHistory(finishedBefore: Int) async throws -> Int
    /// Removes a batch of what retention no longer keeps and no partition drop removes
    /// (``Retention``): deliveries, with their events and receipts, of messages finished before
    /// `finishedBefore`, then those messages. Returns how many rows; 0 when nothing is left.
    func purgeMessages(finishedBefore: Int, limit: Int) async throws -> Int
    /// Writes the next batch (up to `limit` devices) of a message's deliveries and moves its
    /// cursor, in one transaction. With `claim`, the first `claim.limit` deliveries due now
    /// (pacing gives none of its own a claim) are written claimed by the caller for `claim.lease`
    /// milliseconds, exactly as ``claimDeliveries(now:lease:limit:)`` leaves what it claims, and
    /// come back with the batch: the node that wrote them sends them without a claim of its own
    /// (one write fewer per delivery), and if it dies they are due again when the lease ends.
    /// What is written is what `plan` decides from the message and the devices read
    /// (``FanOutInputs``, ``FanOutWrites``); the store reads, calls it inside the transaction, and
    /// writes, then completes the message if the plan says its audience is done.
    func fanOutBatch(messageSeq: Int, audience: Audience, limit: Int, now: Int, claim: FanOutClaim?, plan: @escaping FanOutPlan) async throws -> FanOutBatch
    /// Claims up to `limit` due deliveries for `lease` milliseconds. Never one of a message that is
    /// not being sent (a cancelled or failed message whose deliveries are still being ended).
    func claimDeliveries(now: Int, lease: Int, limit: Int) async throws -> [ClaimedDelivery]
    func recordDeliveries(_ updates: [DeliveryUpdate], messageSeqs: Set<Int>, now: Int) async throws

    // The delivery log and receipts
    /// A page of a message's deliveries (in `state` when given), with their histories.
    func deliveries(messageSeq: Int, state: DeliveryState?, page: SeqPage) async throws -> [DeliveryRecord]
    /// A page of the deliveries to the app's device `deviceID` (in `state` when given), with their
    /// histories; nil when the app has no such device.
    func deliveries(appID: String, deviceID: String, state: DeliveryState?, page: SeqPage) async throws -> [DeliveryRecord]?
    /// How many deliveries the app's device `deviceID` has (in `state` when given); nil when the
    /// app has no such device.
    func deliveryCount(appID: String, deviceID: String, state: DeliveryState?) async throws -> Int?
    func delivery(appID: String, id: String) async throws -> DeliveryRecord?
    /// Applies a receipt as `decision` says (the caller passes the receipt rules): reads the facts
    /// it asks for and writes what it returns, in one transaction.
    func applyReceipt(appID: String, _ receipt: Receipt, detail: DeliveryEventDetail, limit: Int, now: Int, decision: some ReceiptDeciding) async throws -> ReceiptResult
}

/// Work a node announces to the others through the database.
enum AnnouncedWork: String, Sendable, CaseIterable {
    /// A message is due for fan-out.
    case fanOut = "fan-out"
    /// Deliveries were written and are due.
    case delivery
    /// An app's keys, settings or credentials changed, or it was deleted: what a node resolved
    /// of them before (``Authenticator``) is forgotten.
    case apps
}

/// The lists as they were first read: devices and deliveries oldest first after a `seq`,
/// messages newest first before one.
extension Storage {
    func devices(appID: String, filter: DeviceFilter, afterSeq: Int, limit: Int) async throws -> [DeviceRecord] {
        try await devices(appID: appID, filter: filter, page: .after(afterSeq, limit: limit))
    }

    func messages(appID: String, beforeSeq: Int, limit: Int) async throws -> [MessageRecord] {
        try await messages(appID: appID, page: .before(beforeSeq, limit: limit))
    }

    func deliveries(messageSeq: Int, state: DeliveryState?, afterSeq: Int, limit: Int) async throws -> [DeliveryRecord] {
        try await deliveries(messageSeq: messageSeq, state: state, page: .after(afterSeq, limit: limit))
    }

    func deliveries(appID: String, deviceID: String, state: DeliveryState?, afterSeq: Int, limit: Int) async throws -> [DeliveryRecord]? {
        try await deliveries(appID: appID, deviceID: deviceID, state: state, page: .after(afterSeq, limit: limit))
    }
}
