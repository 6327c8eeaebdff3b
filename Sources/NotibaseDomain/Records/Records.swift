package import NotibaseCore
package import NotibaseSenders

/// An app as stored (never its keys, only their hashes, which stay in the database).
package struct AppRecord: Sendable {
    package var id: String
    package var name: String
    package var credentialsRevision: Int
    package var createdAt: Int
    /// Whether a device's external user ID counts only with the backend's identity token.
    package var requireIdentityVerification: Bool
    /// Its quiet hours and default rate, for the messages it sends.
    package var pacing = AppPacing()

    package init(id: String, name: String, credentialsRevision: Int, createdAt: Int, requireIdentityVerification: Bool, pacing: AppPacing = AppPacing()) {
        self.id = id
        self.name = name
        self.credentialsRevision = credentialsRevision
        self.createdAt = createdAt
        self.requireIdentityVerification = requireIdentityVerification
        self.pacing = pacing
    }
}

/// An app's credentials for one provider: sealed, with a summary that holds nothing secret.
package struct CredentialRecord: Sendable {
    package var provider: String
    package var sealed: [UInt8]
    package var summary: String
    package var updatedAt: Int
    /// How sending with them went: `untested` until a send says otherwise.
    package var health = CredentialHealth()
    /// What the provider said when asked about them (``CredentialTester``): `untested` until asked.
    package var test = CredentialTestResult()

    package init(provider: String, sealed: [UInt8], summary: String, updatedAt: Int, health: CredentialHealth = CredentialHealth(), test: CredentialTestResult = CredentialTestResult()) {
        self.provider = provider
        self.sealed = sealed
        self.summary = summary
        self.updatedAt = updatedAt
        self.health = health
        self.test = test
    }
}

/// What a key resolves to.
package struct KeyOwner: Sendable, Hashable {
    package var appID: String
    package var kind: KeyKind
    /// The app's ``AppRecord/requireIdentityVerification``, so registrations need no second read.
    package var requiresIdentityVerification = false

    package init(appID: String, kind: KeyKind, requiresIdentityVerification: Bool = false) {
        self.appID = appID
        self.kind = kind
        self.requiresIdentityVerification = requiresIdentityVerification
    }
}

/// A registration as the store writes it: the device with this platform and token inserted, or
/// updated (fields left nil keep their stored values), after the API read and checked the body
/// (the request itself is the core's ``DeviceRegistrationRequest``).
package struct DeviceUpsert: Sendable, Equatable {
    package var platform: Platform
    package var token: String
    package var externalUserID: String?
    /// The identity token sent for ``externalUserID`` (checked by the API, never stored).
    package var identityToken: String? = nil
    package var tags: [String]?
    package var locale: String?
    package var timeZone: String?
    package var appVersion: String?
    package var sdkVersion: String?
    /// The token this registration replaces: that device is deactivated.
    package var previousToken: String? = nil
    /// The APNs environment the device's token belongs to (nil keeps the stored one; a device
    /// without one uses its app's).
    package var apnsEnvironment: APNsEnvironment? = nil
    /// Whether the stored users of devices are verified and this registration may not override
    /// them (the client key of an app that requires identity verification): a device stored with
    /// another user than ``externalUserID`` (which the API kept only with its identity token) is
    /// left as it is and the registration refused (``DeviceUpsert/claimedByAnotherUser``),
    /// and ``previousToken`` retires only a device of the same user or of none.
    package var protectsVerifiedUsers = false

    package init(platform: Platform, token: String, externalUserID: String? = nil, identityToken: String? = nil, tags: [String]? = nil, locale: String? = nil, timeZone: String? = nil, appVersion: String? = nil, sdkVersion: String? = nil, previousToken: String? = nil, apnsEnvironment: APNsEnvironment? = nil, protectsVerifiedUsers: Bool = false) {
        self.platform = platform
        self.token = token
        self.externalUserID = externalUserID
        self.identityToken = identityToken
        self.tags = tags
        self.locale = locale
        self.timeZone = timeZone
        self.appVersion = appVersion
        self.sdkVersion = sdkVersion
        self.previousToken = previousToken
        self.apnsEnvironment = apnsEnvironment
        self.protectsVerifiedUsers = protectsVerifiedUsers
    }
}

extension DeviceUpsert {
    /// What a store throws for a registration that ``protectsVerifiedUsers`` and names a token
    /// whose device is stored with another user.
    package static let claimedByAnotherUser = Refusal(
        kind: .forbidden, code: "identity_required",
        message: "this token belongs to a device verified as another user: send that user's externalUserId and externalUserIdToken, or change the device with the server key",
        field: "externalUserIdToken")
}

/// A registered device.
package struct DeviceRecord: Sendable {
    package var seq: Int
    package var id: String
    package var platform: Platform
    package var token: String
    package var externalUserID: String?
    package var tags: [String]
    package var locale: String?
    package var timeZone: String?
    package var appVersion: String?
    package var sdkVersion: String?
    package var active: Bool
    package var deactivatedReason: String?
    package var deactivatedAt: Int?
    package var createdAt: Int
    package var updatedAt: Int
    /// The APNs environment it registered; nil: its app's.
    package var apnsEnvironment: APNsEnvironment? = nil

    package init(seq: Int, id: String, platform: Platform, token: String, externalUserID: String? = nil, tags: [String], locale: String? = nil, timeZone: String? = nil, appVersion: String? = nil, sdkVersion: String? = nil, active: Bool, deactivatedReason: String? = nil, deactivatedAt: Int? = nil, createdAt: Int, updatedAt: Int, apnsEnvironment: APNsEnvironment? = nil) {
        self.seq = seq
        self.id = id
        self.platform = platform
        self.token = token
        self.externalUserID = externalUserID
        self.tags = tags
        self.locale = locale
        self.timeZone = timeZone
        self.appVersion = appVersion
        self.sdkVersion = sdkVersion
        self.active = active
        self.deactivatedReason = deactivatedReason
        self.deactivatedAt = deactivatedAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.apnsEnvironment = apnsEnvironment
    }
}

/// Which devices a listing returns.
package struct DeviceFilter: Sendable {
    package var platform: Platform?
    package var externalUserID: String?
    package var tag: String?
    package var active: Bool?
    /// Devices whose token starts with this.
    package var tokenPrefix: String?

    package init(platform: Platform? = nil, externalUserID: String? = nil, tag: String? = nil, active: Bool? = nil, tokenPrefix: String? = nil) {
        self.platform = platform
        self.externalUserID = externalUserID
        self.tag = tag
        self.active = active
        self.tokenPrefix = tokenPrefix
    }
}

/// A message as the API hands it to the store: what it sends and to whom, and when; nothing the
/// store assigns (its number, state, progress). Its stored form is made once, here, so a message
/// that cannot be stored is refused before anything is written.
package struct NewMessage: Sendable {
    package var id: String
    package var appID: String
    package let content: MessageContent
    package let audience: Audience
    package var sendAt: Int
    package var audienceSize: Int
    package var createdAt: Int
    /// When its deliveries go out besides ``sendAt`` (local time, rate, quiet hours), if it says.
    package var pacing: Pacing? = nil
    /// The most bytes the app's stored messages may take, this one's included (nil: no limit):
    /// the store refuses it past that (``StoredBytesExceeded``) and stores nothing.
    package var storedBytesLimit: Int? = nil
    /// What the send asked for, as a digest (``MessagesAPI/SendBody/meaningDigest()``), kept with
    /// its idempotency key: a later send with the key and another digest is refused
    /// (``IdempotencyKeyReused``). Nil: not compared (a key stored before digests were kept).
    package var requestDigest: String? = nil
    /// The bytes it takes as stored, as its app's quota counts them.
    package var storedBytes: Int { storedContent.utf8.count + storedAudience.utf8.count }
    /// The content and audience as the store writes them (JSON).
    package let storedContent: String
    package let storedAudience: String

    /// Throws ``EncodingError`` when the content or audience has no JSON form.
    package init(id: String, appID: String, content: MessageContent, audience: Audience, sendAt: Int, audienceSize: Int, createdAt: Int) throws {
        self.init(
            id: id, appID: appID, content: content, audience: audience, sendAt: sendAt, audienceSize: audienceSize, createdAt: createdAt,
            storedContent: try StoredJSON.encode(content), storedAudience: try StoredJSON.encode(audience))
    }

    /// A message with stored forms given as they are: made once by the send that checked their
    /// size, or, in tests, what a damaged database holds.
    package init(
        id: String, appID: String, content: MessageContent, audience: Audience, sendAt: Int, audienceSize: Int, createdAt: Int,
        storedContent: String, storedAudience: String
    ) {
        self.id = id
        self.appID = appID
        self.content = content
        self.audience = audience
        self.sendAt = sendAt
        self.audienceSize = audienceSize
        self.createdAt = createdAt
        self.storedContent = storedContent
        self.storedAudience = storedAudience
    }

    /// The record of it once stored under `seq`, before any fan-out.
    package func record(seq: Int) -> MessageRecord {
        MessageRecord(
            seq: seq, id: id, appID: appID, content: content, audience: audience, state: .scheduled, sendAt: sendAt,
            audienceSize: audienceSize, fanOutCursor: 0, createdAt: createdAt, pacing: pacing)
    }
}

/// A message as stored: what it sends, to whom, its progress.
package struct MessageRecord: Sendable {
    package var seq: Int
    package var id: String
    package var appID: String
    /// What it sends; nil when the stored form cannot be read (a damaged database): such a
    /// message is failed alone, and still listed.
    package var content: MessageContent?
    /// Who it goes to; nil when the stored form cannot be read.
    package var audience: Audience?
    package var state: MessageState
    package var sendAt: Int
    package var audienceSize: Int
    package var fanOutCursor: Int
    package var createdAt: Int
    package var finishedAt: Int?
    /// Why it was given up, when its state is ``MessageState/failed``.
    package var failureReason: String? = nil
    /// When its deliveries go out besides ``sendAt``, and the rate's progress.
    package var pacing: Pacing? = nil

    package init(seq: Int, id: String, appID: String, content: MessageContent? = nil, audience: Audience? = nil, state: MessageState, sendAt: Int, audienceSize: Int, fanOutCursor: Int, createdAt: Int, finishedAt: Int? = nil, failureReason: String? = nil, pacing: Pacing? = nil) {
        self.seq = seq
        self.id = id
        self.appID = appID
        self.content = content
        self.audience = audience
        self.state = state
        self.sendAt = sendAt
        self.audienceSize = audienceSize
        self.fanOutCursor = fanOutCursor
        self.createdAt = createdAt
        self.finishedAt = finishedAt
        self.failureReason = failureReason
        self.pacing = pacing
    }
}

/// Where a message is in its life.
package enum MessageState: String, Sendable, Codable, CaseIterable {
    /// Waiting for its send time.
    case scheduled
    /// Deliveries are being written.
    case fanningOut
    /// Every delivery is written; some are still on their way.
    case sending
    /// Every delivery reached a final state.
    case completed
    /// Cancelled before it finished; deliveries not yet sent were cancelled.
    case cancelled
    /// Given up before it finished, with a reason (its stored content could not be read);
    /// deliveries not yet sent failed with the same reason.
    case failed
}

/// A delivery as the API shows it.
package struct DeliveryRecord: Sendable {
    package var seq: Int
    package var id: String
    package var messageID: String
    package var deviceID: String?
    package var platform: Platform
    package var variant: String?
    package var state: DeliveryState
    package var attempts: Int
    package var providerID: String?
    package var nextAttemptAt: Int?
    package var createdAt: Int
    package var updatedAt: Int
    /// When the provider accepted it (the `sent` entry of its history).
    package var sentAt: Int?
    /// What its message's pacing decided (the `scheduled` entry of its history), if it has one.
    package var schedule: DeliveryEventDetail? = nil
    package var events: [DeliveryEventRecord] = []

    package init(seq: Int, id: String, messageID: String, deviceID: String? = nil, platform: Platform, variant: String? = nil, state: DeliveryState, attempts: Int, providerID: String? = nil, nextAttemptAt: Int? = nil, createdAt: Int, updatedAt: Int, sentAt: Int? = nil, schedule: DeliveryEventDetail? = nil, events: [DeliveryEventRecord] = []) {
        self.seq = seq
        self.id = id
        self.messageID = messageID
        self.deviceID = deviceID
        self.platform = platform
        self.variant = variant
        self.state = state
        self.attempts = attempts
        self.providerID = providerID
        self.nextAttemptAt = nextAttemptAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.sentAt = sentAt
        self.schedule = schedule
        self.events = events
    }
}

/// One entry of a delivery's history.
package struct DeliveryEventRecord: Sendable {
    package var event: String
    package var at: Int
    /// Nil when there is none, or when the stored form cannot be read.
    package var detail: DeliveryEventDetail?

    package init(event: String, at: Int, detail: DeliveryEventDetail? = nil) {
        self.event = event
        self.at = at
        self.detail = detail
    }
}

/// What a fan-out batch claims for the node that writes it: up to `limit` deliveries, leased for
/// `lease` milliseconds.
package struct FanOutClaim: Sendable {
    package var lease: Int
    package var limit: Int

    package init(lease: Int, limit: Int) {
        self.lease = lease
        self.limit = limit
    }
}

/// What a fan-out batch did: deliveries written, whether the audience is done, and those it
/// wrote claimed (``FanOutClaim``), oldest first.
package struct FanOutBatch: Sendable {
    package var written: Int
    package var done: Bool
    package var claimed: [ClaimedDelivery] = []
    /// The deliveries written, counted by platform and then by state (`queued`, or `failed` when
    /// pacing gave one no moment).
    package var counts: [String: [String: Int]] = [:]

    /// The platforms of the devices it wrote deliveries for.
    package var platforms: Set<Platform> { Set(counts.keys.compactMap(Platform.init(rawValue:))) }

    package init(written: Int, done: Bool, claimed: [ClaimedDelivery] = [], counts: [String: [String: Int]] = [:]) {
        self.written = written
        self.done = done
        self.claimed = claimed
        self.counts = counts
    }
}

/// A send due now to a short list of devices or users, without pacing, that its store writes with
/// its deliveries in one transaction (``Storage/createMessagesWithDeliveries(_:claim:)``).
package struct PostedMessage: Sendable {
    package var message: NewMessage
    /// Its idempotency key, replayed within `window` milliseconds.
    package var idempotencyKey: String?
    package var window: Int
    /// How its deliveries are decided, as a fan-out batch's are.
    package var plan: FanOutPlan
    /// The most deliveries written with it; a larger audience is left to the fan-out loop.
    package var limit: Int
    /// When it was received: its deliveries are written at this moment.
    package var now: Int

    /// What storing it did.
    package struct Outcome: Sendable {
        /// The message as it is after the transaction (`sending`, or `completed` when nobody
        /// matched), or the one its idempotency key stored before.
        package var record: MessageRecord
        package var replayed: Bool
        /// Deliveries written; nil when none were: a replay, or an audience over the limit.
        package var written: Int?
        /// Those written claimed for the caller (``FanOutClaim``).
        package var claimed: [ClaimedDelivery] = []
        /// Those written, by platform and state.
        package var counts: [String: [String: Int]] = [:]

        /// The platforms of the devices it wrote deliveries for.
        package var platforms: Set<Platform> { Set(counts.keys.compactMap(Platform.init(rawValue:))) }

        package init(record: MessageRecord, replayed: Bool, written: Int? = nil, claimed: [ClaimedDelivery] = [], counts: [String: [String: Int]] = [:]) {
            self.record = record
            self.replayed = replayed
            self.written = written
            self.claimed = claimed
            self.counts = counts
        }
    }
}

/// A delivery claimed by a worker, with what it needs to render and send it.
package struct ClaimedDelivery: Sendable {
    package var seq: Int
    package var id: String
    package var messageSeq: Int
    /// Nil when the device was deleted.
    package var deviceSeq: Int?
    package var platform: Platform
    package var variant: String?
    package var attempts: Int
    package var createdAt: Int
    /// Nil when the device was deleted.
    package var token: String?
    package var deviceActive: Bool
    /// Why the device was deactivated (a provider's verdict, or replaced by a new token).
    package var deactivatedReason: String? = nil
    /// The moment it was meant for, when pacing gave it one of its own (its TTL counts from it;
    /// otherwise from the message's send time).
    package var momentAt: Int? = nil
    /// When pacing first made it due, if it did (the retry budget's age counts from it).
    package var scheduledAt: Int? = nil
    /// The APNs environment its device registered; nil: its app's.
    package var apnsEnvironment: APNsEnvironment? = nil
    /// What its `delivery.sent` event names beyond its update, read with the claim by a store that
    /// renders the event before the send's transaction (SQLite, for an app with a webhook
    /// endpoint); nil otherwise.
    package var sendFacts: SendFacts? = nil
    /// Its app, when that store claimed it while other apps had an endpoint and its own had none:
    /// its send needs no event unless its app has one by the record.
    package var appWithoutEndpoint: String? = nil

    package init(seq: Int, id: String, messageSeq: Int, deviceSeq: Int? = nil, platform: Platform, variant: String? = nil, attempts: Int, createdAt: Int, token: String? = nil, deviceActive: Bool, deactivatedReason: String? = nil, momentAt: Int? = nil, scheduledAt: Int? = nil, apnsEnvironment: APNsEnvironment? = nil, sendFacts: SendFacts? = nil, appWithoutEndpoint: String? = nil) {
        self.seq = seq
        self.id = id
        self.messageSeq = messageSeq
        self.deviceSeq = deviceSeq
        self.platform = platform
        self.variant = variant
        self.attempts = attempts
        self.createdAt = createdAt
        self.token = token
        self.deviceActive = deviceActive
        self.deactivatedReason = deactivatedReason
        self.momentAt = momentAt
        self.scheduledAt = scheduledAt
        self.apnsEnvironment = apnsEnvironment
        self.sendFacts = sendFacts
        self.appWithoutEndpoint = appWithoutEndpoint
    }
}

/// What a `delivery.sent` event names that a worker's update does not hold: the app, the message,
/// the delivery, its platform, the device and its external user ID as read when the delivery was
/// claimed, and the provider's ID stored by an earlier attempt (the event names the update's, or
/// else this one).
///
/// A class, shared and not copied: a claimed delivery, its pending push and its update each hold
/// it, and as a struct each copy retained and released its seven strings (a large send's workers
/// copy every delivery's several times).
package final class SendFacts: Sendable {
    package let appID: String
    package let messageID: String
    package let deliveryID: String
    package let platform: String
    package let deviceID: String?
    package let externalUserID: String?
    package let storedProviderID: String?

    package init(appID: String, messageID: String, deliveryID: String, platform: String, deviceID: String?, externalUserID: String?, storedProviderID: String? = nil) {
        self.appID = appID
        self.messageID = messageID
        self.deliveryID = deliveryID
        self.platform = platform
        self.deviceID = deviceID
        self.externalUserID = externalUserID
        self.storedProviderID = storedProviderID
    }
}

/// What a worker decided for one claimed delivery.
package struct DeliveryUpdate: Sendable {
    package var seq: Int
    package var state: DeliveryState
    /// When to try again; nil for a final state.
    package var dueAt: Int?
    package var providerID: String?
    package var detail: DeliveryEventDetail?
    /// Set when the provider called the token dead: the reason to record on the device.
    package var deactivateDevice: (seq: Int, reason: String, at: Int)?
    /// A send's ``ClaimedDelivery/sendFacts``, when its claim read them.
    package var sendFacts: SendFacts? = nil
    /// A send's ``ClaimedDelivery/appWithoutEndpoint``.
    package var appWithoutEndpoint: String? = nil

    /// The history entry it writes: the state it reaches, by name.
    package var event: String { state.rawValue }

    package init(seq: Int, state: DeliveryState, dueAt: Int? = nil, providerID: String? = nil, detail: DeliveryEventDetail? = nil, deactivateDevice: (seq: Int, reason: String, at: Int)? = nil, sendFacts: SendFacts? = nil, appWithoutEndpoint: String? = nil) {
        self.seq = seq
        self.state = state
        self.dueAt = dueAt
        self.providerID = providerID
        self.detail = detail
        self.deactivateDevice = deactivateDevice
        self.sendFacts = sendFacts
        self.appWithoutEndpoint = appWithoutEndpoint
    }
}

/// The outcome of posting a receipt.
package enum ReceiptResult: Sendable, Equatable {
    case accepted(deliveryID: String)
    case duplicate(deliveryID: String)
    case unknownDelivery
    /// The delivery has as many receipts as it may keep.
    case limitReached
}

/// A message's funnel, counted by the store: how many deliveries reached each step, what devices
/// reported drawing, and why deliveries failed.
/// Deliveries of a message waiting for working credentials, on one platform for one reason.
package struct CredentialWait: Sendable, Equatable, Encodable {
    package var platform: String
    package var reason: String
    package var count: Int
    /// What the provider's answer means and what to do.
    package var explanation: String?

    package init(platform: String, reason: String, count: Int, explanation: String? = nil) {
        self.platform = platform
        self.reason = reason
        self.count = count
        self.explanation = explanation
    }
}

package struct Funnel: Sendable {
    /// Deliveries by state.
    package var byState: [String: Int] = [:]
    /// Deliveries the provider accepted (whatever happened after).
    package var sent = 0
    /// Deliveries with a render report, with buttons drawn, with the image attached.
    package var rendered = 0
    package var renderedWithButtons = 0
    package var renderedWithImage = 0
    /// Deliveries of a silent background push the app reported it received.
    package var received = 0
    /// Deliveries opened, dismissed.
    package var opened = 0
    package var dismissed = 0
    /// Deliveries on which each button was tapped, by button ID.
    package var actions: [String: Int] = [:]
    /// Failed deliveries by reason: the provider's code (or the server's reason), how many, an
    /// example of what happened and what the provider table says to do.
    package var failures: [(reason: String, count: Int, example: String?, explanation: String?)] = []
}
