import Foundation
import NotibaseCore
package import NotibaseDomain
package import NotibaseHTTP
import NotibaseWebhooks
import NotibaseServices

/// `/v1/webhooks`: the app's endpoints for its event stream, with the server key (docs/server.md,
/// "Webhooks"). A secret is shown once, in the answer that makes it; an endpoint of another app is
/// a 404, as one that does not exist.
package enum WebhooksAPI {
    package struct EndpointBody: Encodable {
        package var id: String
        package var url: String
        package var types: [String]
        package var description: String?
        package var enabled: Bool
        package var disabledReason: String?
        package var failingSince: String?
        package var nextAttemptAt: String?
        package var createdAt: String
        package var updatedAt: String
        /// Only in the answers that make a secret (creation, rotation).
        package var secret: String?

        package init(_ record: WebhookEndpointRecord, secret: String? = nil) {
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
    package struct EndpointChangeBody: Decodable {
        package var url: String?
        package var types: [String]??
        package var description: String??
        package var enabled: Bool?

        package enum CodingKeys: String, CodingKey, CaseIterable { case url, types, description, enabled }

        package init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownFields(CodingKeys.self)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            url = try c.decodeIfPresent(String.self, forKey: .url)
            if c.contains(.types) { types = .some(try c.decodeIfPresent([String].self, forKey: .types)) }
            if c.contains(.description) { description = .some(try c.decodeIfPresent(String.self, forKey: .description)) }
            enabled = try c.decodeIfPresent(Bool.self, forKey: .enabled)
        }

        /// Checks what is given; the URL with the transport's address policy.
        package func checked(_ context: APIContext, appID: String) async throws -> WebhookEndpointChange {
            if let url {
                guard url.utf8.count <= 2_048 else { throw APIError.invalid("url", "must be at most 2048 bytes") }
                if let refusal = await context.webhookTransport.refusal(of: url, appID: appID) {
                    throw APIError.invalid("url", "is refused (\(refusal.reason.rawValue)): \(refusal.detail)")
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

    package struct ReplayBody: Decodable {
        package var since: String
    }

    package struct ReplayedBody: Encodable {
        package var id: String
        package var since: String
        /// How many events of the app's stream are sent again (those the endpoint wants among them).
        package var events: Int
    }

    package struct AttemptBody: Encodable {
        package var webhookId: String
        package var events: Int
        package var at: String
        package var outcome: String
        package var status: Int?
        package var latencyMs: Int
        package var answer: String
        package var nextRetryAt: String?

        package init(_ record: WebhookAttemptRecord) {
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

    package static func add(to router: inout Router, _ context: APIContext) {
        let webhooks = context.webhooks
        router.add(.post, "/v1/webhooks") { request, _ in
            let appID = try await context.appID(request)
            let body = try JSON.decode(EndpointChangeBody.self, from: request)
            guard let url = body.url else {
                throw APIError(status: 400, code: "missing_field", message: "url is required: the https URL events are sent to", field: "url")
            }
            guard body.enabled == nil else { throw APIError.invalid("enabled", "is set with PATCH; a new endpoint is enabled") }
            let change = try await body.checked(context, appID: appID)
            guard let (record, secret) = try await webhooks.create(appID: appID, url: url, types: change.types ?? nil, description: change.description ?? nil) else {
                let limit = webhooks.endpointsPerApp
                throw APIError(
                    status: 409, code: "endpoint_limit_reached",
                    message: "the app has \(limit) webhook endpoints, the most this server allows (--webhook-endpoints-per-app): delete one, or send several event types to one endpoint",
                    field: nil)
            }
            return JSON.response(status: 201, EndpointBody(record, secret: secret))
        }

        router.add(.get, "/v1/webhooks/event-types") { request, _ in
            _ = try await context.appID(request)
            return JSON.response(status: 200, ListBody(items: WebhookEventType.described, nextCursor: nil))
        }

        router.add(.get, "/v1/webhooks") { request, _ in
            let appID = try await context.appID(request)
            let page = try Page(request)
            guard !page.wantsTotal else { throw APIError.invalid("total", "is not offered on this list: it holds at most --webhook-endpoints-per-app endpoints") }
            let records = try await webhooks.endpoints(appID: appID, page: page.seqPage)
            return JSON.response(status: 200, ListBody(items: records.map { EndpointBody($0) }, nextCursor: page.next(count: records.count, lastSeq: records.last?.seq)))
        }

        router.add(.get, "/v1/webhooks/{webhookId}") { request, parameters in
            guard let record = try await webhooks.endpoint(appID: try await context.appID(request), id: try parameters["webhookId"]) else { throw notFound }
            return JSON.response(status: 200, EndpointBody(record))
        }

        router.add(.patch, "/v1/webhooks/{webhookId}") { request, parameters in
            let appID = try await context.appID(request)
            let change = try await JSON.decode(EndpointChangeBody.self, from: request).checked(context, appID: appID)
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

    package static let notFound = APIError.notFound("webhook endpoint")
}
