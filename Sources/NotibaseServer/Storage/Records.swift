import NotibaseCore
import NotibaseSenders

/// An app as stored (never its keys, only their hashes, which stay in the database).
struct AppRecord: Sendable {
    var id: String
    var name: String
    var credentialsRevision: Int
    var createdAt: Int
    /// Whether a device's external user ID counts only with the backend's identity token.
    var requireIdentityVerification: Bool
    /// Its quiet hours and default rate, for the messages it sends.
    var pacing = AppPacing()
}

/// An app's credentials for one provider: sealed, with a summary that holds nothing secret.
struct CredentialRecord: Sendable {
    var provider: String
    var sealed: [UInt8]
    var summary: String
    var updatedAt: Int
    /// How sending with them went: `untested` until a send says otherwise.
    var health = CredentialHealth()
    /// What the provider said when asked about them (``CredentialTester``): `untested` until asked.
    var test = CredentialTestResult()
}

/// What a key resolves to.
struct KeyOwner: Sendable, Hashable {
    var appID: String
    var kind: KeyKind
    /// The app's ``AppRecord/requireIdentityVerification``, so registrations need no second read.
    var requiresIdentityVerification = false
}

/// A registration as the store writes it: the device with this platform and token inserted, or
/// updated (fields left nil keep their stored values), after the API read and checked the body
/// (the request itself is the core's ``DeviceRegistrationRequest``).
struct DeviceUpsert: Sendable, Equatable {
    var platform: Platform
    var token: String
    var externalUserID: String?
    /// The identity token sent for ``externalUserID`` (checked by the API, never stored).
    var identityToken: String? = nil
    var tags: [String]?
    var locale: String?
    var timeZone: String?
    var appVersion: String?
    var sdkVersion: String?
    /// The token this registration replaces: that device is deactivated.
    var previousToken: String? = nil
    /// The APNs environment the device's token belongs to (nil keeps the stored one; a device
    /// without one uses its app's).
    var apnsEnvironment: APNsEnvironment? = nil
    /// Whether the stored users of devices are verified and this registration may not override
    /// them (the client key of an app that requires identity verification): a device stored with
    /// another user than ``externalUserID`` (which the API kept only with its identity token) is
    /// left as it is and the registration refused (``DeviceUpsert/claimedByAnotherUser``),
    /// and ``previousToken`` retires only a device of the same user or of none.
    var protectsVerifiedUsers = false
}

extension DeviceUpsert {
    /// What a store throws for a registration that ``protectsVerifiedUsers`` and names a token
    /// whose device is stored with another user.
    static let claimedByAnotherUser = Refusal(
        kind: .forbidden, code: "identity_required",
        message: "this token belongs to a device verified as another user: send that user's externalUserId and externalUserIdToken, or change the device with the server key",
        field: "externalUserIdToken")
}

/// A registered device.
struct DeviceRecord: Sendable {
    var seq: Int
    var id: String
    var platform: Platform
    var token: String
    var externalUserID: String?
    var tags: [String]
    var locale: String?
    var timeZone: String?
    var appVersion: String?
    var sdkVersion: String?
    var active: Bool
    var deactivatedReason: String?
    var deactivatedAt: Int?
    var createdAt: Int
    var updatedAt: Int
    /// The APNs environment it registered; nil: its app's.
    var apnsEnvironment: APNsEnvironment? = nil
}

/// Which devices a listing returns.
struct DeviceFilter: Sendable {
    var platform: Platform?
    var externalUserID: String?
    var tag: String?
    var active: Bool?
    /// Devices whose token starts with this.
    var tokenPrefix: String?
}

/// A message as the API hands it to the store: what it sends and to whom, and when; nothing the
/// store assigns (its number, state, progress). Its stored form is made once, here, so a message
/// that cannot be stored is refused before anything is written.
struct NewMessage: Sendable {
    var id: String
    var appID: String
    let content: MessageContent
    let audience: Audience
    var sendAt: Int
    var audienceSize: Int
    var createdAt: Int
    /// When its deliveries go out besides ``sendAt`` (local time, rate, quiet hours), if it says.
    var pacing: Pacing? = nil
    /// The most bytes the app's stored messages may take, this one's included (nil: no limit):
    /// the store refuses it past that (``StoredBytesExceeded``) and stores nothing.
    var storedBytesLimit: Int? = nil
    /// What the send asked for, as a digest (``MessagesAPI/SendBody/meaningDigest()``), kept with
    /// its idempotency key: a later send with the key and another digest is refused
    /// (``IdempotencyKeyReused``). Nil: not compared (a key stored before digests were kept).
    var requestDigest: String? = nil
    /// The bytes it takes as stored, as its app's quota counts them.
    var storedBytes: Int { storedContent.utf8.count + storedAudience.utf8.count }
    /// The content and audience as the store writes them (JSON).
    let storedContent: String
    let storedAudience: String

    /// Throws ``EncodingError`` when the content or audience has no JSON form.
    init(id: String, appID: String, content: MessageContent, audience: Audience, sendAt: Int, audienceSize: Int, createdAt: Int) throws {
        self.init(
            id: id, appID: appID, content: content, audience: audience, sendAt: sendAt, audienceSize: audienceSize, createdAt: createdAt,
            storedContent: try StoredJSON.encode(content), storedAudience: try StoredJSON.encode(audience))
    }

    /// A message with stored forms given as they are: made once by the send that checked their
    /// size, or, in tests, what a damaged database holds.
    init(
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
    func record(seq: Int) -> MessageRecord {
        MessageRecord(
            seq: seq, id: id, appID: appID, content: content, audience: audience, state: .scheduled, sendAt: sendAt,
            audienceSize: audienceSize, fanOutCursor: 0, createdAt: createdAt, pacing: pacing)
    }
}

/// A message as stored: what it sends, to whom, its progress.
struct MessageRecord: Sendable {
    var seq: Int
    var id: String
    var appID: String
    /// What it sends; nil when the stored form cannot be read (a damaged database): such a
    /// message is failed alone, and still listed.
    var content: MessageContent?
    /// Who it goes to; nil when the stored form cannot be read.
    var audience: Audience?
    var state: MessageState
    var sendAt: Int
    var audienceSize: Int
    var fanOutCursor: Int
    var createdAt: Int
    var finishedAt: Int?
    /// Why it was given up, when its state is ``MessageState/failed``.
    var failureReason: String? = nil
    /// When its deliveries go out besides ``sendAt``, and the rate's progress.
    var pacing: Pacing? = nil
}

/// Where a message is in its life.
enum MessageState: String, Sendable, Codable, CaseIterable {
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
struct DeliveryRecord: Sendable {
    var seq: Int
    var id: String
    var messageID: String
    var deviceID: String?
    var platform: Platform
    var variant: String?
    var state: DeliveryState
    var attempts: Int
    var providerID: String?
    var nextAttemptAt: Int?
    var createdAt: Int
    var updatedAt: Int
    /// When the provider accepted it (the `sent` entry of its history).
    var sentAt: Int?
    /// What its message's pacing decided (the `scheduled` entry of its history), if it has one.
    var schedule: DeliveryEventDetail? = nil
    var events: [DeliveryEventRecord] = []
}

/// One entry of a delivery's history.
struct DeliveryEventRecord: Sendable {
    var event: String
    var at: Int
    /// Nil when there is none, or when the stored form cannot be read.
    var detail: DeliveryEventDetail?
}

/// What a fan-out batch claims for the node that writes it: up to `limit` deliveries, leased for
/// `lease` milliseconds.
struct FanOutClaim: Sendable {
    var lease: Int
    var limit: Int
}

/// What a fan-out batch did: deliveries written, whether the audience is done, and those it
/// wrote claimed (``FanOutClaim``), oldest first.
struct FanOutBatch: Sendable {
    var written: Int
    var done: Bool
    var claimed: [ClaimedDelivery] = []
    /// The deliveries written, counted by platform and then by state (`queued`, or `failed` when
    /// pacing gave one no moment).
    var counts: [String: [String: Int]] = [:]

    /// The platforms of the devices it wrote deliveries for.
    var platforms: Set<Platform> { Set(counts.keys.compactMap(Platform.init(rawValue:))) }
}

/// A send due now to a short list of devices or users, without pacing, that its store writes with
/// its deliveries in one transaction (``Storage/createMessagesWithDeliveries(_:claim:)``).
struct PostedMessage: Sendable {
    var message: NewMessage
    /// Its idempotency key, replayed within `window` milliseconds.
    var idempotencyKey: String?
    var window: Int
    /// How its deliveries are decided, as a fan-out batch's are.
    var plan: FanOutPlan
    /// The most deliveries written with it; a larger audience is left to the fan-out loop.
    var limit: Int
    /// When it was received: its deliveries are written at this moment.
    var now: Int

    /// What storing it did.
    struct Outcome: Sendable {
        /// The message as it is after the transaction (`sending`, or `completed` when nobody
        /// matched), or the one its idempotency key stored before.
        var record: MessageRecord
        var replayed: Bool
        /// Deliveries written; nil when none were: a replay, or an audience over the limit.
        var written: Int?
        /// Those written claimed for the caller (``FanOutClaim``).
        var claimed: [ClaimedDelivery] = []
        /// Those written, by platform and state.
        var counts: [String: [String: Int]] = [:]

        /// The platforms of the devices it wrote deliveries for.
        var platforms: Set<Platform> { Set(counts.keys.compactMap(Platform.init(rawValue:))) }
    }
}

/// A delivery claimed by a worker, with what it needs to render and send it.
struct ClaimedDelivery: Sendable {
    var seq: Int
    var id: String
    var messageSeq: Int
    /// Nil when the device was deleted.
    var deviceSeq: Int?
    var platform: Platform
    var variant: String?
    var attempts: Int
    var createdAt: Int
    /// Nil when the device was deleted.
    var token: String?
    var deviceActive: Bool
    /// Why the device was deactivated (a provider's verdict, or replaced by a new token).
    var deactivatedReason: String? = nil
    /// The moment it was meant for, when pacing gave it one of its own (its TTL counts from it;
    /// otherwise from the message's send time).
    var momentAt: Int? = nil
    /// When pacing first made it due, if it did (the retry budget's age counts from it).
    var scheduledAt: Int? = nil
    /// The APNs environment its device registered; nil: its app's.
    var apnsEnvironment: APNsEnvironment? = nil
    /// What its `delivery.sent` event names beyond its update, read with the claim by a store that
    /// renders the event before the send's transaction (SQLite, for an app with a webhook
    /// endpoint); nil otherwise.
    var sendFacts: SendFacts? = nil
    /// Its app, when that store claimed it while other apps had an endpoint and its own had none:
    /// its send needs no event unless its app has one by the record.
    var appWithoutEndpoint: String? = nil
}

/// What a `delivery.sent` event names that a worker's update does not hold: the app, the message,
/// the delivery, its platform, the device and its external user ID as read when the delivery was
/// claimed, and the provider's ID stored by an earlier attempt (the event names the update's, or
/// else this one).
///
/// A class, shared and not copied: a claimed delivery, its pending push and its update each hold
/// it, and as a struct each copy retained and released its seven strings (a large send's workers
/// copy every delivery's several times).
final class SendFacts: Sendable {
    let appID: String
    let messageID: String
    let deliveryID: String
    let platform: String
    let deviceID: String?
    let externalUserID: String?
    let storedProviderID: String?

    init(appID: String, messageID: String, deliveryID: String, platform: String, deviceID: String?, externalUserID: String?, storedProviderID: String? = nil) {
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
struct DeliveryUpdate: Sendable {
    var seq: Int
    var state: DeliveryState
    /// When to try again; nil for a final state.
    var dueAt: Int?
    var providerID: String?
    var detail: DeliveryEventDetail?
    /// Set when the provider called the token dead: the reason to record on the device.
    var deactivateDevice: (seq: Int, reason: String, at: Int)?
    /// A send's ``ClaimedDelivery/sendFacts``, when its claim read them.
    var sendFacts: SendFacts? = nil
    /// A send's ``ClaimedDelivery/appWithoutEndpoint``.
    var appWithoutEndpoint: String? = nil

    /// The history entry it writes: the state it reaches, by name.
    var event: String { state.rawValue }
}

/// The outcome of posting a receipt.
enum ReceiptResult: Sendable, Equatable {
    case accepted(deliveryID: String)
    case duplicate(deliveryID: String)
    case unknownDelivery
    /// The delivery has as many receipts as it may keep.
    case limitReached
}

/// A message's funnel, counted by the store: how many deliveries reached each step, what devices
/// reported drawing, and why deliveries failed.
/// Deliveries of a message waiting for working credentials, on one platform for one reason.
struct CredentialWait: Sendable, Equatable, Encodable {
    var platform: String
    var reason: String
    var count: Int
    /// What the provider's answer means and what to do.
    var explanation: String?
}

struct Funnel: Sendable {
    /// Deliveries by state.
    var byState: [String: Int] = [:]
    /// Deliveries the provider accepted (whatever happened after).
    var sent = 0
    /// Deliveries with a render report, with buttons drawn, with the image attached.
    var rendered = 0
    var renderedWithButtons = 0
    var renderedWithImage = 0
    /// Deliveries opened, dismissed.
    var opened = 0
    var dismissed = 0
    /// Deliveries on which each button was tapped, by button ID.
    var actions: [String: Int] = [:]
    /// Failed deliveries by reason: the provider's code (or the server's reason), how many, an
    /// example of what happened and what the provider table says to do.
    var failures: [(reason: String, count: Int, example: String?, explanation: String?)] = []
}
