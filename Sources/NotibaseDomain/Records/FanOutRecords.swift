import NotibaseCore
package import NotibaseSenders

/// How a fan-out batch's deliveries are decided: given what the store read (``FanOutInputs``),
/// what it writes (``FanOutWrites``). The store runs it inside the batch's transaction and knows
/// nothing of how it decides (variants, pacing, claims: `FanOutPlanner` in `Delivery/`).
package typealias FanOutPlan = @Sendable (FanOutInputs) -> FanOutWrites

/// What a fan-out batch reads before it decides: the message (locked for the batch where the
/// backend locks), the next devices of its audience after its cursor, in order, and the batch's
/// terms.
package struct FanOutInputs: Sendable {
    package var message: MessageRecord
    package var targets: [FanOutTarget]
    /// The most devices the batch reads: fewer means the audience is exhausted.
    package var limit: Int
    /// The batch's clock reading (ms).
    package var now: Int
    /// What the batch may write claimed for its node.
    package var claim: FanOutClaim?

    package init(message: MessageRecord, targets: [FanOutTarget], limit: Int, now: Int, claim: FanOutClaim? = nil) {
        self.message = message
        self.targets = targets
        self.limit = limit
        self.now = now
        self.claim = claim
    }
}

/// One device a fan-out batch writes a delivery for, as stored.
package struct FanOutTarget: Sendable, Equatable {
    package var seq: Int
    package var platform: String
    package var locale: String?
    package var timeZone: String?
    package var token: String
    package var createdAt: Int
    package var apnsEnvironment: APNsEnvironment?
    /// The device's ID and external user ID, read by a store that renders a send's event before
    /// its transaction (``ClaimedDelivery/sendFacts``); nil otherwise.
    package var id: String? = nil
    package var externalUserID: String? = nil

    package init(seq: Int, platform: String, locale: String? = nil, timeZone: String? = nil, token: String, createdAt: Int, apnsEnvironment: APNsEnvironment? = nil, id: String? = nil, externalUserID: String? = nil) {
        self.seq = seq
        self.platform = platform
        self.locale = locale
        self.timeZone = timeZone
        self.token = token
        self.createdAt = createdAt
        self.apnsEnvironment = apnsEnvironment
        self.id = id
        self.externalUserID = externalUserID
    }
}

/// What a fan-out batch writes, decided: the deliveries (their identifiers are the store's), the
/// failure events the schedule decided, the message's new cursor and state, the rate's progress,
/// and whether the message may now be complete.
package struct FanOutWrites: Sendable {
    /// When the deliveries and what the batch records of them are stamped (ms).
    package var written: Int
    package var rows: [FanOutRow]
    /// The message's pacing with the rate's progress to store with the cursor; nil: unchanged.
    package var pacing: Pacing?
    /// The last device written for (the cursor, unchanged when none was).
    package var cursor: Int
    /// The message's state after the batch (`fanningOut`, or `sending` when its audience is done).
    package var state: MessageState
    /// Whether the audience is exhausted: the message is complete when nothing of it is pending
    /// (``Lifecycle/completion(time:messages:hasPending:)``, run by the store after the rows).
    package var done: Bool

    /// Whether the message may be complete after the batch: its audience is done and no row the
    /// batch wrote is pending (a pending row keeps it from completing, so the completion's
    /// statement is not run for nothing: a one-device message's row is always pending).
    package var mayComplete: Bool {
        done && !rows.contains { Lifecycle.pending.contains($0.state) }
    }

    /// The rows counted by platform and then by state.
    package var counts: [String: [String: Int]] {
        rows.reduce(into: [:]) { counts, row in counts[row.target.platform, default: [:]][row.state.rawValue, default: 0] += 1 }
    }
}

/// One delivery a fan-out batch writes, and its failure event, if the schedule decided one.
package struct FanOutRow: Sendable, Equatable {
    package var target: FanOutTarget
    package var variant: String?
    /// `queued`, or `failed` when the schedule gave it no moment.
    package var state: DeliveryState
    /// When it is due; nil when it is failed.
    package var due: Int?
    /// 1 when it is written claimed by the batch's node, else 0.
    package var attempts: Int
    /// What pacing decided (`moment_at`, `scheduled_at`, the stored `scheduled` note), when it did.
    package var moment: Int?
    package var scheduled: Int?
    package var schedule: String?
    /// The stored detail of its `failed` event, when it is failed.
    package var failure: String?

    /// Whether it is written claimed for the batch's node (``FanOutClaim``).
    package var claimed: Bool { attempts > 0 }

    /// The claimed delivery the batch hands its node, once the row is stored as `seq`, `id`; with
    /// what its send's event names (``ClaimedDelivery/sendFacts``) when `factsOf` is its message.
    package func claimedDelivery(seq: Int, id: String, messageSeq: Int, written: Int, factsOf message: MessageRecord? = nil) -> ClaimedDelivery {
        var delivery = ClaimedDelivery(
            seq: seq, id: id, messageSeq: messageSeq, deviceSeq: target.seq, platform: Platform(rawValue: target.platform) ?? .ios,
            variant: variant, attempts: attempts, createdAt: written, token: target.token, deviceActive: true, apnsEnvironment: target.apnsEnvironment)
        if let message {
            delivery.sendFacts = SendFacts(
                appID: message.appID, messageID: message.id, deliveryID: id, platform: target.platform, deviceID: target.id, externalUserID: target.externalUserID)
        }
        return delivery
    }
}
