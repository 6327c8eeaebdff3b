import Foundation
package import NotibaseCore
import NotibaseDomain
package import NotibaseHTTP
import NotibaseWebhooks
import NotibaseServices

/// `POST /v1/preview`: a message in, what would be sent and shown out. The exact APNs and FCM
/// payloads (with placeholder receipt IDs of their real size) against the 4 KB limits, what was
/// shortened, every validation issue, what an Android phone draws, and the doctor's verdict on
/// what an iPhone draws. Nothing is stored or sent.
package enum PreviewAPI {
    package struct Body: Decodable {
        package var message: Message

        package enum CodingKeys: String, CodingKey, CaseIterable {
            case message, ttl, priority
            case collapseID = "collapseId"
        }

        package init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownFields(CodingKeys.self)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            message = try c.decode(Message.self, forKey: .message)
            if let ttl = try c.decodeIfPresent(Int.self, forKey: .ttl) { message.ttl = ttl }
            if let priority = try c.decodeIfPresent(Priority.self, forKey: .priority) { message.priority = priority }
            if let collapseID = try c.decodeIfPresent(String.self, forKey: .collapseID) { message.collapseID = collapseID }
        }
    }

    /// One provider's request.
    package struct Rendered: Encodable {
        package var headers: [String: String]?
        package var payload: JSONValue?
        /// The size the provider's limit counts: the APNs body; FCM's data entries.
        package var bytes: Int?
        package var limit: Int
        /// The fields cut to fit (today only `body`, with an ellipsis).
        package var shortened: [String]
        /// Why there is no request (the message is invalid for this platform, or too large).
        package var error: String?
    }

    /// What the Android SDK draws from the FCM data message.
    package struct Android: Encodable {
        package var title: String?
        package var subtitle: String?
        package var body: String?
        package var buttons: [JSONValue]
        package var image: String?
        package var url: String?
    }

    package struct Answer: Encodable {
        /// Warnings: the message can be sent, but will not look as expected everywhere.
        package var issues: [ValidationIssue]
        /// Errors, which make the answer a 400 (not encoded).
        package var errors: [ValidationIssue]
        package var apns: Rendered
        package var fcm: Rendered
        package var android: Android?
        /// The doctor's verdict on the APNs payload; null when the server has no doctor or there is
        /// no APNs payload.
        package var ios: JSONValue?

        package enum CodingKeys: String, CodingKey { case issues, apns, fcm, android, ios }
    }

    package static func add(to router: inout Router, _ context: APIContext) {
        router.add(.post, "/v1/preview") { request, _ in
            _ = try await context.appID(request)
            let body = try JSON.decode(Body.self, from: request)
            let answer = try await preview(body.message, context)
            if let first = answer.errors.first {
                // As sending it would answer: every problem at once, the first one's field named.
                var error = APIError(status: 400, code: "invalid_message", message: answer.errors.map(\.description).joined(separator: "; "), field: first.field)
                error.issues = answer.errors
                throw error
            }
            return JSON.response(status: 200, answer)
        }
    }

    package static func preview(_ message: Message, _ context: APIContext) async throws -> Answer {
        let issues = message.validate().map { issue in
            var issue = issue
            issue.field = "message." + issue.field
            return issue
        }
        let deliveryID = try Identifier.make(milliseconds: context.clock.milliseconds())
        let device = DeliveryContext(
            deviceToken: String(repeating: "0", count: 64), messageID: deliveryID, deliveryID: deliveryID,
            receiptSignature: context.signer.receiptSignature(deliveryID: deliveryID), now: Date(milliseconds: context.clock.milliseconds()))

        var apns = Rendered(limit: APNsRenderer.payloadLimit, shortened: [])
        var apnsPayload: JSONValue?
        do {
            let request = try APNsRenderer(message: message, topic: nil).render(device)
            let payload = try JSONDecoder().decode(JSONValue.self, from: Data(request.body))
            apns.headers = Dictionary(request.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
            apns.payload = payload
            apns.bytes = request.body.count
            if let body = message.body, payload["aps"]["alert"]["body"].string != body { apns.shortened = ["body"] }
            apnsPayload = payload
        } catch {
            apns.error = "\(error)"
        }

        var fcm = Rendered(limit: FCMRenderer.payloadLimit, shortened: [])
        var android: Android?
        do {
            let request = try FCMRenderer(message: message).render(device)
            let payload = try JSONDecoder().decode(JSONValue.self, from: Data(request.body))
            fcm.payload = payload
            let data = payload["message"]["data"]
            // FCM's limit is on the data, counted its way (not the whole request).
            if case .object(let entries) = data {
                fcm.bytes = FCMRenderer.dataSize(of: entries.compactMap { key, value in value.string.map { (key: key, value: $0) } })
            }
            if let body = message.body, data["nb_body"].string ?? data["body"].string != body { fcm.shortened = ["body"] }
            // A silent background push draws nothing: no Android notification, no iOS verdict.
            if !message.background { android = Android(
                title: data["nb_title"].string, subtitle: data["nb_subtitle"].string, body: data["nb_body"].string,
                buttons: data["nb_buttons"].string.flatMap { try? JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) }?.array ?? [],
                image: data["nb_image"].string, url: data["nb_url"].string) }
        } catch {
            fcm.error = "\(error)"
        }

        var ios: JSONValue?
        if !message.background, let doctor = context.doctor, let payload = apnsPayload, let bytes = apns.bytes {
            ios = await doctor.examine(apnsPayload: payload, bytes: bytes)
        }
        return Answer(
            issues: issues.filter { $0.severity == .warning }, errors: issues.filter { $0.severity == .error }, apns: apns, fcm: fcm, android: android, ios: ios)
    }
}
