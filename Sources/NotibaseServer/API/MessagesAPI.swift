import Foundation
import NotibaseCore

/// `/v1/messages`: send a message to an audience (answered at once, fanned out in the background),
/// read its state and counts, list, cancel.
enum MessagesAPI {
    struct SendBody: Decodable {
        var content: MessageContent
        var audience: Audience
        var sendAt: Date?
        var idempotencyKey: String?
        /// Pacing (``MessagesAPI/pacing(_:app:now:)``).
        var localTime: WallTime?
        var localDate: CivilDate?
        var fallbackTimeZone: String?
        var ratePerMinute: Int?
        var quietHours: Bool?
        /// The content's stored form, once its size was checked (``MessagesAPI/checkSize(_:)``).
        var storedContent: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case message, variants, audience, sendAt, ttl, priority
            case collapseID = "collapseId"
            case idempotencyKey
            case localTime, localDate, fallbackTimeZone, ratePerMinute, quietHours
        }

        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownFields(CodingKeys.self)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            var message = try c.decode(Message.self, forKey: .message)
            var variants = try c.decodeIfPresent([String: Message].self, forKey: .variants)
            audience = try c.decode(Audience.self, forKey: .audience)
            if let text = try c.decodeIfPresent(String.self, forKey: .sendAt) {
                guard let date = Timestamp.parse(text) else {
                    throw DecodingError.dataCorruptedError(forKey: .sendAt, in: c, debugDescription: "expected \(Timestamp.expected)")
                }
                sendAt = date
            }
            idempotencyKey = try c.decodeIfPresent(String.self, forKey: .idempotencyKey)
            try check(idempotencyKey.map { (1...255).contains($0.unicodeScalars.count) && !$0.hasControlCharacters } ?? true, .idempotencyKey, c,
                      "must be 1 to 255 characters, none a control character")
            try check((variants ?? [:]).count <= 100 && (variants ?? [:]).keys.allSatisfy(RegistrationBody.isLocale), .variants, c,
                      "must map at most 100 locales (such as fr or pt-BR) to messages")
            // The delivery options apply to the default message and every variant.
            let ttl = try c.decodeIfPresent(Int.self, forKey: .ttl)
            let priority = try c.decodeIfPresent(Priority.self, forKey: .priority)
            let collapseID = try c.decodeIfPresent(String.self, forKey: .collapseID)
            func apply(_ message: inout Message) {
                if let ttl { message.ttl = ttl }
                if let priority { message.priority = priority }
                if let collapseID { message.collapseID = collapseID }
            }
            apply(&message)
            for key in (variants ?? [:]).keys { apply(&variants![key]!) }
            content = MessageContent(message: message, variants: variants)
            try decodePacing(c)
        }
    }

    struct MessageBody: Encodable {
        var id: String
        var state: String
        var audience: Audience
        var audienceSize: Int
        var message: Message
        var variants: [String: Message]?
        var sendAt: String
        var createdAt: String
        var finishedAt: String?
        /// Why the message was given up (state `failed`).
        var failureReason: String?
        /// Its pacing, when it has one.
        var localTime: WallTime?
        var localDate: CivilDate?
        var fallbackTimeZone: String?
        var ratePerMinute: Int?
        var quietHours: QuietHours?
        var timeZoneFallbacks: Int?
        var counts: Counts?
        var replayed: Bool?
        /// What stands between the message and its audience (``MessagesAPI/Warning``): in the
        /// answer to a send and to `GET /v1/messages/{messageId}`, empty when nothing does.
        var warnings: [Warning]?
    }

    struct Counts: Encodable {
        var total = 0
        var byState: [String: Int] = [:]
        var byPlatform: [String: [String: Int]] = [:]
        /// With pacing: deliveries waiting for their moment (local time, quiet hours, their turn at
        /// the rate), and when the last of those written so far is due.
        var waiting: Int?
        var lastDueAt: String?
        /// Deliveries retrying because the provider refuses the app's credentials, by platform and
        /// reason (only when some are).
        var waitingForCredentials: [CredentialWait]?
    }

    static func add(to router: inout Router, _ context: APIContext) {
        router.add(.post, "/v1/messages") { request, _ in
            let appID = try await context.appID(request)
            var body = try JSON.decode(SendBody.self, from: request)
            if let header = request.header("idempotency-key") {
                guard (1...255).contains(header.unicodeScalars.count), !header.hasControlCharacters else {
                    throw APIError.invalid("Idempotency-Key", "must be 1 to 255 characters, none a control character")
                }
                body.idempotencyKey = body.idempotencyKey ?? header
            }
            try validate(body.content)
            do {
                body.storedContent = try checkSize(body.content)
            } catch let error as EncodingError {
                throw unstorable(error)
            }
            let now = context.clock.milliseconds()
            // Charged before the audience is counted: a refused message costs the database nothing.
            let (created, replayed) = try await context.quota.charging(appID) { try await create(body, appID: appID, now: now, context) }
            var stored = created.record
            var platforms = created.platforms
            if !replayed {
                if stored.sendAt <= now {
                    var written = created.written
                    if written == nil, stored.audienceSize <= FanOut.atOnceAudience,
                       let batch = await FanOut.atOnce(stored, store: context.store, now: context.clock.milliseconds()) {
                        written = batch.count
                        if batch.done {
                            stored = try await context.store.message(seq: stored.seq) ?? stored  // sending, or completed
                            platforms = batch.platforms
                        }
                    }
                    if let written {
                        context.metrics.recordFanOut(deliveries: written)
                        if written > 0 { context.signals.delivery.notify() }
                    }
                    if Lifecycle.toFanOut.contains(stored.state) { context.signals.fanOut.notify() }
                }
                context.logger.info("message accepted", ["requestId": .string(request.id), "messageId": .string(stored.id), "audienceSize": .int(stored.audienceSize)])
            }
            // Counted as the transaction wrote them, when it wrote them: no read.
            var answer = try await messageBody(stored, context, written: created.counts)
            if replayed {
                answer.replayed = true
            } else {
                answer.warnings = try await sendWarnings(stored, app: created.app, platforms: platforms, context)
            }
            return JSON.response(status: 202, answer)
        }

        router.add(.get, "/v1/messages") { request, _ in
            let appID = try await context.appID(request)
            let page = try Page(request, defaultAfter: Int.max)
            let messages = try await context.store.messages(appID: appID, beforeSeq: page.after, limit: page.limit)
            var items: [MessageBody] = []
            for message in messages { items.append(try await messageBody(message, context, counts: false)) }
            return JSON.response(status: 200, ListBody(items: items, nextCursor: page.next(count: messages.count, lastSeq: messages.last?.seq)))
        }

        router.add(.get, "/v1/messages/{messageId}") { request, parameters in
            let appID = try await context.appID(request)
            guard let message = try await context.store.message(appID: appID, id: parameters["messageId"]) else { throw APIError.notFound("message") }
            var answer = try await messageBody(message, context)
            answer.warnings = try await currentWarnings(message, counts: answer.counts ?? Counts(), context)
            return JSON.response(status: 200, answer)
        }

        router.add(.post, "/v1/messages/{messageId}/cancel") { request, parameters in
            let appID = try await context.appID(request)
            guard let message = try await context.store.cancelMessage(appID: appID, id: parameters["messageId"], now: context.clock.milliseconds()) else {
                throw APIError.notFound("message")
            }
            context.handoff?.queue.forget(messageSeq: message.seq)
            if message.state == .completed {
                throw APIError(status: 409, code: "already_finished", message: "the message already reached every device it could; there is nothing to cancel", field: nil)
            }
            return JSON.response(status: 200, try await messageBody(message, context))
        }
    }

    /// A message as stored by its send, how many deliveries were written with it (nil: none yet),
    /// and those counted by platform and state.
    private struct Created: Sendable {
        var record: MessageRecord
        var written: Int?
        /// Those written, by platform and state, when all were (nil: not known yet).
        var counts: [String: [String: Int]]? = nil
        /// The platforms of the devices written for, when all were (nil: not known yet).
        var platforms: Set<Platform>?
        /// The sending app, as read for the send.
        var app: AppRecord?
    }

    /// Stores the message a send asks for (or finds the one its idempotency key stored before).
    /// One due now to a short list of devices or users, without pacing, is stored with its
    /// deliveries in one transaction (``Storage/createMessagesWithDeliveries(_:claim:)``), shared
    /// with the other posts that arrive with it (``APIContext/posts``): the everyday one-device
    /// message costs the store a share of one write.
    private static func create(_ body: SendBody, appID: String, now: Int, _ context: APIContext) async throws -> (Created, replayed: Bool) {
        var sendAt = max(now, body.sendAt.map { Int($0.timeIntervalSince1970 * 1000) } ?? now)
        guard sendAt <= now + 30 * 86_400_000 else { throw APIError.invalid("sendAt", "must be within 30 days") }
        let app = try await context.app(appID)
        var pacing = try pacing(body, app: app?.pacing ?? AppPacing(), now: now)
        if let start = pacing?.fanOutStart(now: now), pacing?.localDate != nil {
            guard start <= now + 30 * 86_400_000 else { throw APIError.invalid("localDate", "must be within 30 days") }
            sendAt = start
        }
        if pacing == nil, sendAt <= now, let listed = body.audience.listed, listed.count <= FanOut.atOnceAudience {
            let message = try newMessage(body, appID: appID, sendAt: sendAt, audienceSize: 0, now: now, context)
            let post = PostedMessage(
                message: message, idempotencyKey: body.idempotencyKey, window: 86_400_000, chooser: VariantChooser(body.content),
                limit: FanOut.atOnceAudience, now: now)
            let outcome = try await storing { try await context.posts.submit(post) }
            let written = outcome.written != nil
            return (Created(
                record: outcome.record, written: outcome.written, counts: written ? outcome.counts : nil, platforms: written ? outcome.platforms : nil, app: app),
                    outcome.replayed)
        }
        let audienceSize: Int
        if var paced = pacing, paced.usesTimeZones {
            // Counted by time zone: how many fall back, and the rate's lanes.
            let byZone = try await context.store.audienceByTimeZone(appID: appID, body.audience)
            audienceSize = byZone.values.reduce(0, +)
            paced.timeZoneFallbacks = byZone.filter { $0.key.map(ZoneClock.isKnown) != true }.values.reduce(0, +)
            paced.plan = DeliverySchedule.plan(for: paced, sendAt: sendAt, expected: byZone, now: now)
            pacing = paced
        } else {
            audienceSize = try await context.store.audienceSize(appID: appID, body.audience)
            if let paced = pacing { pacing?.plan = DeliverySchedule.plan(for: paced, sendAt: sendAt, expected: [:], now: now) }
        }
        var message = try newMessage(body, appID: appID, sendAt: sendAt, audienceSize: audienceSize, now: now, context)
        message.pacing = pacing
        let (record, replayed) = try await storing { try await context.store.createMessage(message, idempotencyKey: body.idempotencyKey, window: 86_400_000) }
        return (Created(record: record, app: app), replayed)
    }

    private static func newMessage(_ body: SendBody, appID: String, sendAt: Int, audienceSize: Int, now: Int, _ context: APIContext) throws -> NewMessage {
        do {
            var message = NewMessage(
                id: try Identifier.make(milliseconds: now), appID: appID, content: body.content, audience: body.audience, sendAt: sendAt,
                audienceSize: audienceSize, createdAt: now, storedContent: try body.storedContent ?? StoredJSON.encode(body.content),
                storedAudience: try StoredJSON.encode(body.audience))
            message.storedBytesLimit = context.limits.appStoredBytes > 0 ? context.limits.appStoredBytes : nil
            return message
        } catch let error as EncodingError {
            throw unstorable(error)
        }
    }

    /// A store call that stores a message: the app's stored-bytes quota refusing it is a 429
    /// naming the limit (`--app-stored-bytes`).
    private static func storing<T>(_ store: () async throws -> T) async throws -> T {
        do {
            return try await store()
        } catch let full as StoredBytesExceeded {
            var error = APIError(
                status: 429, code: "quota_exceeded",
                message: "this app's stored messages take \(full.used) bytes and this one \(full.message) more, over its limit of \(full.limit); "
                    + "finished messages are removed after the retention period, or ask the operator for a larger --app-stored-bytes",
                field: nil)
            error.limit = "storedBytes"
            throw error
        }
    }

    /// A value the encoder cannot write is refused before anything is stored, never kept as `null`.
    private static func unstorable(_ error: EncodingError) -> APIError {
        APIError.invalid("message", "cannot be stored as JSON (\(error))")
    }

    /// Validation of the default message and every variant (for both platforms), all problems at once.
    private static func validate(_ content: MessageContent) throws {
        var issues = content.message.validate().filter { $0.severity == .error }.map { issue in
            var issue = issue
            issue.field = "message." + issue.field
            return issue
        }
        for (locale, variant) in (content.variants ?? [:]).sorted(by: { $0.key < $1.key }) {
            issues += variant.validate().filter { $0.severity == .error }.map { issue in
                var issue = issue
                issue.field = "variants.\(locale).\(issue.field)"
                return issue
            }
        }
        guard let first = issues.first else { return }
        var error = APIError(status: 400, code: "invalid_message", message: issues.map(\.description).joined(separator: "; "), field: first.field)
        error.issues = issues
        throw error
    }

    /// `written`: the deliveries the send wrote, by platform and state, when it wrote them all
    /// (the counts then need no read).
    private static func messageBody(
        _ record: MessageRecord, _ context: APIContext, counts includeCounts: Bool = true, written: [String: [String: Int]]? = nil
    ) async throws -> MessageBody {
        // A message whose stored content cannot be read (a damaged database) is still listed, with
        // what is known of it and its failure, so that one bad row never breaks the app's list.
        let content = record.content
            ?? MessageContent(message: Message(body: "(this message's stored content could not be read)"), variants: nil)
        let audience = record.audience ?? .devices([])
        var counts: Counts?
        if includeCounts {
            var tally = Counts()
            let rows = if let written {
                written.flatMap { platform, states in states.map { (state: $0.key, platform: platform, count: $0.value) } }
            } else {
                try await context.store.deliveryCounts(messageSeq: record.seq)
            }
            for row in rows {
                tally.total += row.count
                tally.byState[row.state, default: 0] += row.count
                tally.byPlatform[row.platform, default: [:]][row.state, default: 0] += row.count
            }
            if record.pacing != nil {
                let waiting = try await context.store.waitingDeliveries(messageSeq: record.seq, now: context.clock.milliseconds())
                tally.waiting = waiting.count
                tally.lastDueAt = waiting.lastDueAt?.timestamp
            }
            if tally.byState["retrying", default: 0] > 0 {
                let waiting = try await context.store.waitingForCredentials(messageSeq: record.seq)
                if !waiting.isEmpty { tally.waitingForCredentials = waiting }
            }
            counts = tally
        }
        return MessageBody(
            id: record.id, state: record.state.rawValue, audience: audience, audienceSize: record.audienceSize, message: content.message,
            variants: content.variants, sendAt: record.sendAt.timestamp, createdAt: record.createdAt.timestamp,
            finishedAt: record.finishedAt?.timestamp, failureReason: record.failureReason,
            localTime: record.pacing?.localTime, localDate: record.pacing?.localDate, fallbackTimeZone: record.pacing?.fallbackTimeZone,
            ratePerMinute: record.pacing?.ratePerMinute, quietHours: record.pacing?.quietHours, timeZoneFallbacks: record.pacing?.timeZoneFallbacks,
            counts: counts)
    }
}
