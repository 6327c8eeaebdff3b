import NotibaseCore
import NotibaseSenders

/// How a fan-out batch's deliveries are decided: given what the store read (``FanOutInputs``),
/// what it writes (``FanOutWrites``). The store runs it inside the batch's transaction and knows
/// nothing of how it decides (variants, pacing, claims: `FanOutPlanner` in `Delivery/`).
typealias FanOutPlan = @Sendable (FanOutInputs) -> FanOutWrites

/// What a fan-out batch reads before it decides: the message (locked for the batch where the
/// backend locks), the next devices of its audience after its cursor, in order, and the batch's
/// terms.
struct FanOutInputs: Sendable {
    var message: MessageRecord
    var targets: [FanOutTarget]
    /// The most devices the batch reads: fewer means the audience is exhausted.
    var limit: Int
    /// The batch's clock reading (ms).
    var now: Int
    /// What the batch may write claimed for its node.
    var claim: FanOutClaim?
}

/// One device a fan-out batch writes a delivery for, as stored.
struct FanOutTarget: Sendable, Equatable {
    var seq: Int
    var platform: String
    var locale: String?
    var timeZone: String?
    var token: String
    var createdAt: Int
    var apnsEnvironment: APNsEnvironment?
    /// The device's ID and external user ID, read by a store that renders a send's event before
    /// its transaction (``ClaimedDelivery/sendFacts``); nil otherwise.
    var id: String? = nil
    var externalUserID: String? = nil
}

/// What a fan-out batch writes, decided: the deliveries (their identifiers are the store's), the
/// failure events the schedule decided, the message's new cursor and state, the rate's progress,
/// and whether the message may now be complete.
struct FanOutWrites: Sendable {
    /// When the deliveries and what the batch records of them are stamped (ms).
    var written: Int
    var rows: [FanOutRow]
    /// The message's pacing with the rate's progress to store with the cursor; nil: unchanged.
    var pacing: Pacing?
    /// The last device written for (the cursor, unchanged when none was).
    var cursor: Int
    /// The message's state after the batch (`fanningOut`, or `sending` when its audience is done).
    var state: MessageState
    /// Whether the audience is exhausted: the message is complete when nothing of it is pending
    /// (``Lifecycle/completion(time:messages:hasPending:)``, run by the store after the rows).
    var done: Bool

    /// Whether the message may be complete after the batch: its audience is done and no row the
    /// batch wrote is pending (a pending row keeps it from completing, so the completion's
    /// statement is not run for nothing: a one-device message's row is always pending).
    var mayComplete: Bool {
        done && !rows.contains { Lifecycle.pending.contains($0.state) }
    }

    /// The rows counted by platform and then by state.
    var counts: [String: [String: Int]] {
        rows.reduce(into: [:]) { counts, row in counts[row.target.platform, default: [:]][row.state.rawValue, default: 0] += 1 }
    }
}

/// One delivery a fan-out batch writes, and its failure event, if the schedule decided one.
struct FanOutRow: Sendable, Equatable {
    var target: FanOutTarget
    var variant: String?
    /// `queued`, or `failed` when the schedule gave it no moment.
    var state: DeliveryState
    /// When it is due; nil when it is failed.
    var due: Int?
    /// 1 when it is written claimed by the batch's node, else 0.
    var attempts: Int
    /// What pacing decided (`moment_at`, `scheduled_at`, the stored `scheduled` note), when it did.
    var moment: Int?
    var scheduled: Int?
    var schedule: String?
    /// The stored detail of its `failed` event, when it is failed.
    var failure: String?

    /// Whether it is written claimed for the batch's node (``FanOutClaim``).
    var claimed: Bool { attempts > 0 }

    /// The claimed delivery the batch hands its node, once the row is stored as `seq`, `id`.
    func claimedDelivery(seq: Int, id: String, messageSeq: Int, written: Int) -> ClaimedDelivery {
        ClaimedDelivery(
            seq: seq, id: id, messageSeq: messageSeq, deviceSeq: target.seq, platform: Platform(rawValue: target.platform) ?? .ios,
            variant: variant, attempts: attempts, createdAt: written, token: target.token, deviceActive: true, apnsEnvironment: target.apnsEnvironment)
    }
}

extension Rows {
    /// The columns of ``fanOutTarget(_:)``, of the `devices` table.
    static let fanOutTargetColumns =
        "devices.seq, devices.platform, devices.locale, devices.time_zone, devices.token, devices.created_at, devices.apns_environment"

    static func fanOutTarget(_ row: some StoredRow) -> FanOutTarget {
        FanOutTarget(
            seq: row.int(0), platform: row.text(1), locale: row.optionalText(2), timeZone: row.optionalText(3), token: row.text(4), createdAt: row.int(5),
            apnsEnvironment: row.optionalText(6).flatMap(APNsEnvironment.init(rawValue:)))
    }

    /// ``fanOutTargetColumns`` and the device's ID and external user ID.
    static let fanOutTargetWithFactsColumns = fanOutTargetColumns + ", devices.id, devices.external_user_id"

    static func fanOutTargetWithFacts(_ row: some StoredRow) -> FanOutTarget {
        var target = fanOutTarget(row)
        target.id = row.text(7)
        target.externalUserID = row.optionalText(8)
        return target
    }
}
