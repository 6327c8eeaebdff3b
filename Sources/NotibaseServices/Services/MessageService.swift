package import NotibaseDelivery
import Foundation
import NotibaseCore
package import NotibaseSenders
package import NotibaseDomain
package import NotibaseStore
import NotibaseWebhooks

/// Messages: a send (stored, written at once for a short list of devices, handed to this node's
/// workers, signalled and counted), a message read with its counts and warnings, the list, a
/// cancel, the delivery log and the funnel. The routes in `MessagesAPI`, `DeliveriesAPI` and
/// `FunnelAPI` parse, authorize and answer; this decides and calls the store and the delivery loops
/// (docs/decisions/0033).
package struct MessageService: Sendable {
    /// The roles of the store a send, a read, a cancel and the delivery log use.
    package typealias Store = AppsStore & PostingStore & MessagesStore & DeliveryLogStore & EndingStore & FanOutStore

    let store: any Store
    /// Keeps the apps' settings this node read, until an app changes.
    package let auth: Authenticator
    package let clock: WallClock
    package let logger: Logger
    package let metrics: Metrics
    package let limits: ServiceLimits
    /// Messages each app may create a minute.
    package let quota: MessageQuota
    /// Wakes this node's fan-out when a message is due now, and its workers when deliveries are.
    package let signals: WorkSignals
    /// Where this node's workers take what was written claimed for them, and for how long such a
    /// claim holds; nil when posts leave their deliveries to the workers' own claims.
    let handoff: (queue: Handoff, lease: Duration)?
    /// One-device messages (``PostedMessage``) stored in group commits; what they write claimed
    /// goes to the ``handoff`` with their messages, so a worker sends it without a claim, a read
    /// or decoding the message again.
    package let posts: GroupCommit<PostedMessage, PostedMessage.Outcome>
    /// Each app's credential health, as the workers found it.
    package let credentialMonitor: CredentialMonitor
    /// Whether the senders send with the apps' stored credentials (not the accepting or simulated
    /// ones): only then does a send warn about missing or failing credentials.
    package let credentialsRequired: Bool

    package init(
        store: any Store, auth: Authenticator, clock: WallClock, logger: Logger, metrics: Metrics, limits: ServiceLimits, quota: MessageQuota,
        signals: WorkSignals, handoff: (queue: Handoff, lease: Duration)?, credentialMonitor: CredentialMonitor, credentialsRequired: Bool
    ) {
        posts = GroupCommit(limit: Self.postsPerCommit, concurrency: store.groupCommitsAtOnce) { posts in
            let claim = handoff.flatMap { handoff in
                let room = handoff.queue.roomForPosts
                return room > 0 ? FanOutClaim(lease: Int(handoff.lease.seconds * 1000), limit: room) : nil
            }
            let outcomes = try await store.createMessagesWithDeliveries(posts, claim: claim)
            if let handoff {
                var claimed: [ClaimedDelivery] = []
                var messages: [MessageRecord] = []
                for case .success(let outcome) in outcomes where !outcome.claimed.isEmpty {
                    claimed += outcome.claimed
                    messages.append(outcome.record)
                }
                handoff.queue.put(claimed, messages: messages)
            }
            return outcomes
        }
        self.store = store
        self.auth = auth
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
        self.limits = limits
        self.quota = quota
        self.signals = signals
        self.handoff = handoff
        self.credentialMonitor = credentialMonitor
        self.credentialsRequired = credentialsRequired
    }

    /// The most posts one transaction stores (each writes at most ``FanOut/atOnceAudience`` deliveries).
    package static let postsPerCommit = 128

    /// Sends what `send` asks for (validated and size-checked by the route), charged to `appID`'s
    /// quota: stores it (or finds the one its idempotency key stored before), writes the
    /// deliveries of a small audience due now itself, counts and signals what it wrote, and reports
    /// the message as stored, with its counts and what stands between it and its audience.
    /// Throws ``IdempotencyKeyReused`` for a key stored by another request, and refuses a time
    /// over 30 days away, pacing the app cannot give, the quota and the stored-bytes quota.
    package func send(_ send: NewSend, appID: String, requestID: String) async throws -> MessageReport {
        let now = clock.milliseconds()
        // Charged before the audience is counted: a refused message costs the database nothing.
        let (created, replayed) = try await quota.charging(appID) { try await create(send, appID: appID, now: now) }
        var stored = created.record
        var platforms = created.platforms
        if !replayed {
            if stored.sendAt <= now {
                var written = created.written
                if written == nil, stored.audienceSize <= FanOut.atOnceAudience,
                   let batch = await FanOut.atOnce(stored, store: store, now: clock.milliseconds()) {
                    written = batch.count
                    if batch.done {
                        stored = try await store.message(seq: stored.seq) ?? stored  // sending, or completed
                        platforms = batch.platforms
                    }
                }
                if let written {
                    metrics.recordFanOut(deliveries: written)
                    if written > 0 { signals.delivery.notify() }
                }
                if Lifecycle.toFanOut.contains(stored.state) { signals.fanOut.notify() }
            }
            logger.info("message accepted", ["requestId": .string(requestID), "messageId": .string(stored.id), "audienceSize": .int(stored.audienceSize)])
        }
        // Counted as the transaction wrote them, when it wrote them: no read.
        var report = try await self.report(stored, written: created.counts)
        if replayed {
            report.replayed = true
        } else {
            report.warnings = try await sendWarnings(stored, app: created.app, platforms: platforms)
        }
        return report
    }

    /// The app `id`'s settings, cached by the authenticator until an app changes.
    private func app(_ id: String) async throws -> AppRecord? {
        try await auth.app(id) { try await store.app(id) }
    }

    /// A message as stored by its send, how many deliveries were written with it (nil: none yet),
    /// and those counted by platform and state.
    private struct Created: Sendable {
        package var record: MessageRecord
        package var written: Int?
        /// Those written, by platform and state, when all were (nil: not known yet).
        package var counts: [String: [String: Int]]? = nil
        /// The platforms of the devices written for, when all were (nil: not known yet).
        package var platforms: Set<Platform>?
        /// The sending app, as read for the send.
        package var app: AppRecord?
    }

    /// Stores the message a send asks for (or finds the one its idempotency key stored before).
    /// One due now to a short list of devices or users, without pacing, is stored with its
    /// deliveries in one transaction (``PostingStore/createMessagesWithDeliveries(_:claim:)``), shared
    /// with the other posts that arrive with it (``posts``): the everyday one-device message costs
    /// the store a share of one write.
    private func create(_ body: NewSend, appID: String, now: Int) async throws -> (Created, replayed: Bool) {
        var sendAt = max(now, body.sendAt.map { Int($0.timeIntervalSince1970 * 1000) } ?? now)
        guard sendAt <= now + 30 * 86_400_000 else { throw Refusal.invalid("sendAt", "must be within 30 days") }
        let app = try await self.app(appID)
        var pacing = try body.pacing(app: app?.pacing ?? AppPacing(), now: now)
        if let start = pacing?.fanOutStart(now: now), pacing?.localDate != nil {
            guard start <= now + 30 * 86_400_000 else { throw Refusal.invalid("localDate", "must be within 30 days") }
            sendAt = start
        }
        if pacing == nil, sendAt <= now, let listed = body.audience.listed, listed.count <= FanOut.atOnceAudience {
            let message = try newMessage(body, appID: appID, sendAt: sendAt, audienceSize: 0, now: now)
            let post = PostedMessage(
                message: message, idempotencyKey: body.idempotencyKey, window: 86_400_000, chooser: VariantChooser(body.content),
                limit: FanOut.atOnceAudience, now: now)
            let outcome = try await Self.storing { try await posts.submit(post) }
            let written = outcome.written != nil
            return (Created(
                record: outcome.record, written: outcome.written, counts: written ? outcome.counts : nil, platforms: written ? outcome.platforms : nil, app: app),
                    outcome.replayed)
        }
        let audienceSize: Int
        if var paced = pacing, paced.usesTimeZones {
            // Counted by time zone: how many fall back, and the rate's lanes.
            let byZone = try await store.audienceByTimeZone(appID: appID, body.audience)
            audienceSize = byZone.values.reduce(0, +)
            paced.timeZoneFallbacks = byZone.filter { $0.key.map(ZoneClock.isKnown) != true }.values.reduce(0, +)
            paced.plan = DeliverySchedule.plan(for: paced, sendAt: sendAt, expected: byZone, now: now)
            pacing = paced
        } else {
            audienceSize = try await store.audienceSize(appID: appID, body.audience)
            if let paced = pacing { pacing?.plan = DeliverySchedule.plan(for: paced, sendAt: sendAt, expected: [:], now: now) }
        }
        var message = try newMessage(body, appID: appID, sendAt: sendAt, audienceSize: audienceSize, now: now)
        message.pacing = pacing
        let (record, replayed) = try await Self.storing {
            try await store.createMessage(message, idempotencyKey: body.idempotencyKey, window: 86_400_000)
        }
        return (Created(record: record, app: app), replayed)
    }

    private func newMessage(_ body: NewSend, appID: String, sendAt: Int, audienceSize: Int, now: Int) throws -> NewMessage {
        do {
            var message = NewMessage(
                id: try Identifier.make(milliseconds: now), appID: appID, content: body.content, audience: body.audience, sendAt: sendAt,
                audienceSize: audienceSize, createdAt: now, storedContent: try body.encodedContent?.stored ?? StoredJSON.encode(body.content),
                storedAudience: try StoredJSON.encode(body.audience))
            message.storedBytesLimit = limits.appStoredBytes > 0 ? limits.appStoredBytes : nil
            if body.idempotencyKey != nil { message.requestDigest = try body.meaningDigest() }
            return message
        } catch let error as EncodingError {
            throw NewSend.unstorable(error)
        }
    }

    /// A store call that stores a message: the app's stored-bytes quota refusing it is refused as
    /// too many, naming the limit (`--app-stored-bytes`). An idempotency key stored by another
    /// request is thrown as the store threw it: the route names the key as it came.
    private static func storing<T>(_ store: () async throws -> T) async throws -> T {
        do {
            return try await store()
        } catch let full as StoredBytesExceeded {
            throw Refusal(
                kind: .tooMany(limit: "storedBytes"), code: "quota_exceeded",
                message: "this app's stored messages take \(full.used) bytes and this one \(full.message) more, over its limit of \(full.limit); "
                    + "finished messages are removed after the retention period, or ask the operator for a larger --app-stored-bytes",
                field: nil)
        }
    }
}
