import Foundation
import NotibaseCore

/// `/v1/webhooks`: the app's endpoints for its event stream, with the server key (docs/server.md,
/// "Webhooks"). A secret is shown once, in the answer that makes it; an endpoint of another app is
/// a 404, as one that does not exist.
enum WebhooksAPI {
    struct EndpointBody: Encodable {
        var id: String
        var url: String
        var types: [String]
        var description: String?
        var enabled: Bool
        var disabledReason: String?
        var failingSince: String?
        var nextAttemptAt: String?
        var createdAt: String
        var updatedAt: String
        /// Only in the answers that make a secret (creation, rotation).
        var secret: String?

        init(_ record: WebhookEndpointRecord, secret: String? = nil) {
            id = record.id
            url = record.url
            types = record.types ?? WebhookEventType.all
            description = record.description
            enabled = record.dispatch.enabled
            disabledReason = record.dispatch.disabledReason
            failingSince = record.dispatch.failingSince?.timestamp
            nextAttemptAt = record.dispatch.nextAttemptAt?.timestamp
            createdAt = record.createdAt.timestamp
            updatedAt = record.updatedAt.timestamp
            self.secret = secret
        }
    }

    /// What `POST` and `PATCH` take; `PATCH` takes any of them, `POST` needs `url`.
    struct EndpointChangeBody: Decodable {
        var url: String?
        var types: [String]??
        var description: String??
        var enabled: Bool?

        enum CodingKeys: String, CodingKey, CaseIterable { case url, types, description, enabled }

        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownFields(CodingKeys.self)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            url = try c.decodeIfPresent(String.self, forKey: .url)
            if c.contains(.types) { types = .some(try c.decodeIfPresent([String].self, forKey: .types)) }
            if c.contains(.description) { description = .some(try c.decodeIfPresent(String.self, forKey: .description)) }
            enabled = try c.decodeIfPresent(Bool.self, forKey: .enabled)
        }

        /// For an http URL or a loopback or private address on a server that refuses them: the
        /// development flag that allows them (a developer's endpoint is often on their machine).
        static func developmentHint(_ refusal: WebhookURLRefusal, url: String, _ context: APIContext) -> String {
            guard !context.trial.contains(.webhookAllowInsecure) else { return "" }
            switch refusal.reason {
            case .notHTTPS where url.lowercased().hasPrefix("http:"), .forbiddenAddress:
                return "; for development only, a server started with \(TrialSetting.webhookAllowInsecure.option) accepts http and loopback or private addresses"
            default:
                return ""
            }
        }

        /// Checks what is given; the URL with the transport's address policy.
        func checked(_ context: APIContext) async throws -> WebhookEndpointChange {
            if let url {
                guard url.utf8.count <= 2_048 else { throw APIError.invalid("url", "must be at most 2048 bytes") }
                if let refusal = await context.webhookTransport.refusal(of: url) {
                    throw APIError.invalid("url", "is refused (\(refusal.reason.rawValue)): \(refusal.detail)" + Self.developmentHint(refusal, url: url, context))
                }
            }
            if let types = types ?? nil {
                guard !types.isEmpty else { throw APIError.invalid("types", "must list at least one event type, or be left out for every type") }
                if let unknown = types.first(where: { !WebhookEventType.all.contains($0) }) {
                    throw APIError.invalid("types", "lists \(JSON.text(unknown)), not an event type: use \(WebhookEventType.all.joined(separator: ", "))")
                }
                guard Set(types).count == types.count else { throw APIError.invalid("types", "lists a type more than once") }
            }
            if let description = description ?? nil, description.unicodeScalars.count > 500 || description.hasControlCharacters {
                throw APIError.invalid("description", "must be at most 500 characters, none a control character")
            }
            return WebhookEndpointChange(url: url, types: types, description: description, enabled: enabled)
        }
    }

    struct ReplayBody: Decodable {
        var since: String
    }

    struct ReplayedBody: Encodable {
        var id: String
        var since: String
        /// How many events of the app's stream are sent again (those the endpoint wants among them).
        var events: Int
    }

    struct AttemptBody: Encodable {
        var webhookId: String
        var events: Int
        var at: String
        var outcome: String
        var status: Int?
        var latencyMs: Int
        var answer: String
        var nextRetryAt: String?

        init(_ record: WebhookAttemptRecord) {
            webhookId = record.batchID
            events = record.events
            at = record.at.timestamp
            outcome = record.outcome
            status = record.status
            latencyMs = record.latencyMilliseconds
            answer = record.answer
            nextRetryAt = record.nextRetryAt?.timestamp
        }
    }

    static func add(to router: inout Router, _ context: APIContext) {
        let webhooks = context.webhooks
        router.add(.post, "/v1/webhooks") { request, _ in
            let appID = try await context.appID(request)
            let body = try JSON.decode(EndpointChangeBody.self, from: request)
            guard let url = body.url else {
                throw APIError(status: 400, code: "missing_field", message: "url is required: the https URL events are sent to", field: "url")
            }
            guard body.enabled == nil else { throw APIError.invalid("enabled", "is set with PATCH; a new endpoint is enabled") }
            let change = try await body.checked(context)
            let (record, secret) = try await webhooks.create(appID: appID, url: url, types: change.types ?? nil, description: change.description ?? nil)
            return JSON.response(status: 201, EndpointBody(record, secret: secret))
        }

        router.add(.get, "/v1/webhooks/event-types") { request, _ in
            _ = try await context.appID(request)
            return JSON.response(status: 200, ListBody(items: WebhookEventType.described, nextCursor: nil))
        }

        router.add(.get, "/v1/webhooks") { request, _ in
            let items = try await webhooks.endpoints(appID: try await context.appID(request)).map { EndpointBody($0) }
            return JSON.response(status: 200, ListBody(items: items, nextCursor: nil))
        }

        router.add(.get, "/v1/webhooks/{webhookId}") { request, parameters in
            guard let record = try await webhooks.endpoint(appID: try await context.appID(request), id: try parameters["webhookId"]) else { throw notFound }
            return JSON.response(status: 200, EndpointBody(record))
        }

        router.add(.patch, "/v1/webhooks/{webhookId}") { request, parameters in
            let appID = try await context.appID(request)
            let change = try await JSON.decode(EndpointChangeBody.self, from: request).checked(context)
            guard let record = try await webhooks.update(appID: appID, id: try parameters["webhookId"], change) else { throw notFound }
            return JSON.response(status: 200, EndpointBody(record))
        }

        router.add(.delete, "/v1/webhooks/{webhookId}") { request, parameters in
            guard try await webhooks.delete(appID: try await context.appID(request), id: try parameters["webhookId"]) else { throw notFound }
            return HTTPResponse(status: 204)
        }

        router.add(.post, "/v1/webhooks/{webhookId}/rotate-secret") { request, parameters in
            guard let (record, secret) = try await webhooks.rotateSecret(appID: try await context.appID(request), id: try parameters["webhookId"]) else {
                throw notFound
            }
            return JSON.response(status: 200, EndpointBody(record, secret: secret))
        }

        router.add(.post, "/v1/webhooks/{webhookId}/test") { request, parameters in
            guard try await webhooks.test(appID: try await context.appID(request), id: try parameters["webhookId"]) else { throw notFound }
            return HTTPResponse(status: 202)
        }

        router.add(.get, "/v1/webhooks/{webhookId}/attempts") { request, parameters in
            let appID = try await context.appID(request)
            let page = try Page(request)
            guard let attempts = try await webhooks.attempts(appID: appID, id: try parameters["webhookId"], limit: min(page.limit, 100)) else {
                throw notFound
            }
            return JSON.response(status: 200, ListBody(items: attempts.map(AttemptBody.init), nextCursor: nil))
        }

        router.add(.post, "/v1/webhooks/{webhookId}/replay") { request, parameters in
            let appID = try await context.appID(request)
            let body = try JSON.decode(ReplayBody.self, from: request)
            guard let since = Timestamp.parse(body.since) else { throw APIError.invalid("since", "must be an RFC 3339 time, such as 2026-12-06T07:00:00Z") }
            let milliseconds = Int((since.timeIntervalSince1970 * 1_000).rounded(.down))
            guard !webhooks.isFuture(milliseconds) else { throw APIError.invalid("since", "is in the future") }
            let id = try parameters["webhookId"]
            guard let events = try await webhooks.replay(appID: appID, id: id, since: milliseconds) else { throw notFound }
            return JSON.response(status: 200, ReplayedBody(id: id, since: milliseconds.timestamp, events: events))
        }
    }

    static let notFound = APIError.notFound("webhook endpoint")
}
