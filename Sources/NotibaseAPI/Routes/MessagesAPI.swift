import Foundation
package import NotibaseCore
package import NotibaseDomain
package import NotibaseHTTP
import NotibaseWebhooks
package import NotibaseServices

/// `/v1/messages`: send a message to an audience (answered at once, fanned out in the background),
/// read its state and counts, list, cancel.
package enum MessagesAPI {
    /// A send's body: what it asks for (its content encoded once its size was checked,
    /// ``MessagesAPI/checkSize(_:)``), and where its idempotency key came from.
    package struct SendBody: Decodable {
        package var send: NewSend
        /// Where the idempotency key came from, as an error names it: the body's field, or the header.
        package var idempotencyKeyField = "idempotencyKey"

        package enum CodingKeys: String, CodingKey, CaseIterable {
            case message, variants, audience, sendAt, ttl, priority
            case collapseID = "collapseId"
            case idempotencyKey
            case localTime, localDate, fallbackTimeZone, ratePerMinute, quietHours
        }

        package init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownFields(CodingKeys.self)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            var message = try c.decode(Message.self, forKey: .message)
            var variants = try c.decodeIfPresent([String: Message].self, forKey: .variants)
            let audience = try c.decode(Audience.self, forKey: .audience)
            var sendAt: Date?
            if let text = try c.decodeIfPresent(String.self, forKey: .sendAt) {
                guard let date = Timestamp.parse(text) else {
                    throw DecodingError.dataCorruptedError(forKey: .sendAt, in: c, debugDescription: "expected \(Timestamp.expected)")
                }
                sendAt = date
            }
            let idempotencyKey = try c.decodeIfPresent(String.self, forKey: .idempotencyKey)
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
            send = NewSend(content: MessageContent(message: message, variants: variants), audience: audience, sendAt: sendAt, idempotencyKey: idempotencyKey)
            try decodePacing(c)
        }
    }

    package struct MessageBody: Encodable {
        package var id: String
        package var state: String
        package var audience: Audience
        package var audienceSize: Int
        package var message: Message
        package var variants: [String: Message]?
        package var sendAt: String
        package var createdAt: String
        package var finishedAt: String?
        /// Why the message was given up (state `failed`).
        package var failureReason: String?
        /// Its pacing, when it has one.
        package var localTime: WallTime?
        package var localDate: CivilDate?
        package var fallbackTimeZone: String?
        package var ratePerMinute: Int?
        package var quietHours: QuietHours?
        package var timeZoneFallbacks: Int?
        package var counts: Counts?
        package var replayed: Bool?
        /// What stands between the message and its audience (``MessageService/Warning``): in the
        /// answer to a send and to `GET /v1/messages/{messageId}`, empty when nothing does.
        package var warnings: [MessageService.Warning]?
        /// The message and variants as the send encoded them, spliced into the answer
        /// (``json()``) instead of encoded again; not a field. Set only with the send's own content.
        package var encodedContent: EncodedContent?

        private enum CodingKeys: String, CodingKey {
            case id, state, audience, audienceSize, message, variants, sendAt, createdAt, finishedAt, failureReason
            case localTime, localDate, fallbackTimeZone, ratePerMinute, quietHours, timeZoneFallbacks, counts, replayed, warnings
        }
    }

    /// ``MessageCounts`` as the answer writes them.
    package struct Counts: Encodable {
        package var total = 0
        package var byState: [String: Int] = [:]
        package var byPlatform: [String: [String: Int]] = [:]
        package var waiting: Int?
        package var lastDueAt: String?
        package var waitingForCredentials: [CredentialWait]?
    }

    package static func add(to router: inout Router, _ context: APIContext) {
        router.add(.post, "/v1/messages") { request, _ in
            let appID = try await context.appID(request)
            var body = try JSON.decode(SendBody.self, from: request)
            if let header = request.header("idempotency-key") {
                guard (1...255).contains(header.unicodeScalars.count), !header.hasControlCharacters else {
                    throw APIError.invalid("Idempotency-Key", "must be 1 to 255 characters, none a control character")
                }
                if body.send.idempotencyKey == nil {
                    body.send.idempotencyKey = header
                    body.idempotencyKeyField = "Idempotency-Key"
                }
            }
            try validate(body.send.content)
            do {
                body.send.encodedContent = try checkSize(body.send.content)
            } catch let error as EncodingError {
                throw NewSend.unstorable(error)
            }
            do {
                let report = try await context.messages.send(body.send, appID: appID, requestID: request.id)
                return JSON.response(status: 202, MessageBody(report, encodedContent: report.replayed ? nil : body.send.encodedContent))
            } catch let reused as IdempotencyKeyReused {
                throw idempotencyKeyReused(body.send.idempotencyKey ?? "", field: body.idempotencyKeyField, reused)
            }
        }

        router.add(.get, "/v1/messages") { request, _ in
            let appID = try await context.appID(request)
            let page = try Page(request, order: .newest)
            let (reports, lastSeq, total) = try await context.messages.list(appID: appID, page: page.seqPage, counting: page.wantsTotal)
            let items = reports.map { MessageBody($0) }
            return JSON.response(status: 200, ListBody(items: items, nextCursor: page.next(count: items.count, lastSeq: lastSeq), total: total))
        }

        router.add(.get, "/v1/messages/{messageId}") { request, parameters in
            let appID = try await context.appID(request)
            let report = try await context.messages.message(appID: appID, id: parameters["messageId"])
            return JSON.response(status: 200, MessageBody(report))
        }

        router.add(.post, "/v1/messages/{messageId}/cancel") { request, parameters in
            let appID = try await context.appID(request)
            return JSON.response(status: 200, MessageBody(try await context.messages.cancel(appID: appID, id: parameters["messageId"])))
        }
    }

    /// Validation of the default message and every variant (for both platforms), all problems at once.
    private static func validate(_ content: MessageContent) throws {
        var issues = content.message.validate().filter { $0.severity == .error }.map { issue in
            var issue = issue
            issue.field = "message." + issue.field
            return issue
        }
        for (locale, variant) in (content.variants ?? [:]).sorted(by: { $0.key < $1.key }) {
            if variant.background != content.message.background {
                issues.append(ValidationIssue(
                    field: "variants.\(locale).background", code: "background_mismatch",
                    message: "a variant is background exactly when the message is: a device gets one or the other, and a silent push draws nothing"))
            }
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
}
