import Foundation
import NotibaseCore
package import NotibaseDomain
package import NotibaseHTTP
import NotibaseWebhooks
import NotibaseServices

/// What the console shows and any backend can ask: a message's funnel (audience → sent → failed
/// by reason → rendered with buttons and image, or received for a background push → opened, each
/// action, dismissed), and how many
/// devices an audience reaches now.
package enum FunnelAPI {
    package struct FunnelBody: Encodable {
        package struct Failure: Encodable {
            package var reason: String
            package var count: Int
            /// What happened, in the words of one of these deliveries' history.
            package var example: String?
            /// What the provider's answer means and what to do.
            package var explanation: String?
        }

        package var messageId: String
        package var state: String
        package var audience: Int
        package var deliveries: Int
        package var queued: Int
        package var sent: Int
        package var failed: Int
        package var cancelled: Int
        package var rendered: Int
        package var renderedWithButtons: Int
        package var renderedWithImage: Int
        /// Deliveries of a silent background push the app reported it received (never rendered).
        package var received: Int
        package var opened: Int
        package var actions: [String: Int]
        package var dismissed: Int
        package var failures: [Failure]
        /// Deliveries retrying because the provider refuses the app's credentials, by platform
        /// and reason: they are sent once working credentials are uploaded.
        package var waitingForCredentials: [CredentialWait]
    }

    package struct AudienceBody: Decodable {
        package var audience: Audience

        package enum CodingKeys: String, CodingKey, CaseIterable { case audience }

        package init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownFields(CodingKeys.self)
            audience = try decoder.container(keyedBy: CodingKeys.self).decode(Audience.self, forKey: .audience)
        }
    }

    package struct AudienceCount: Encodable {
        package var count: Int
        /// For an `externalUserIds` audience: how many of its distinct IDs match no active device.
        package var unmatchedExternalUserIds: Int?
    }

    package static func add(to router: inout Router, _ context: APIContext) {
        router.add(.get, "/v1/messages/{messageId}/funnel") { request, parameters in
            let appID = try await context.appID(request)
            let (message, funnel, waiting) = try await context.messages.funnel(appID: appID, messageID: parameters["messageId"])
            let states = funnel.byState
            return JSON.response(status: 200, FunnelBody(
                messageId: message.id, state: message.state.rawValue, audience: message.audienceSize, deliveries: states.values.reduce(0, +),
                queued: (states["queued"] ?? 0) + (states["retrying"] ?? 0), sent: funnel.sent, failed: states["failed"] ?? 0,
                cancelled: states["cancelled"] ?? 0, rendered: funnel.rendered, renderedWithButtons: funnel.renderedWithButtons,
                renderedWithImage: funnel.renderedWithImage, received: funnel.received, opened: funnel.opened, actions: funnel.actions, dismissed: funnel.dismissed,
                failures: funnel.failures.map { FunnelBody.Failure(reason: $0.reason, count: $0.count, example: $0.example, explanation: $0.explanation) },
                waitingForCredentials: waiting))
        }

        router.add(.post, "/v1/audience/count") { request, _ in
            let appID = try await context.appID(request)
            let body = try JSON.decode(AudienceBody.self, from: request)
            var answer = AudienceCount(count: try await context.messages.audienceSize(appID: appID, body.audience))
            if case .externalUsers(let users) = body.audience {
                answer.unmatchedExternalUserIds = try await context.messages.unmatchedExternalUsers(appID: appID, users)
            }
            return JSON.response(status: 200, answer)
        }
    }
}
