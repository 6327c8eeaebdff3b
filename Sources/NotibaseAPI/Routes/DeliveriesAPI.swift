import Foundation
import NotibaseCore
package import NotibaseDomain
package import NotibaseHTTP
import NotibaseWebhooks
import NotibaseServices

/// The delivery log: every delivery of a message or to a device, with its history, filtered by
/// state and paged with a cursor, oldest or newest first, with its total when asked; and one
/// delivery by ID.
package enum DeliveriesAPI {
    package struct DeliveryBody: Encodable {
        package var id: String
        package var messageId: String
        package var deviceId: String?
        package var platform: String
        package var variant: String?
        package var state: String
        package var attempts: Int
        package var providerId: String?
        package var nextAttemptAt: String?
        package var createdAt: String
        package var updatedAt: String
        package var history: [HistoryEntry]

        package init(_ delivery: DeliveryRecord) {
            id = delivery.id
            messageId = delivery.messageID
            deviceId = delivery.deviceID
            platform = delivery.platform.rawValue
            variant = delivery.variant
            state = delivery.state.rawValue
            attempts = delivery.attempts
            providerId = delivery.providerID
            nextAttemptAt = delivery.state.isFinal ? nil : delivery.nextAttemptAt?.timestamp
            createdAt = delivery.createdAt.timestamp
            updatedAt = delivery.updatedAt.timestamp
            // In causal order: queued, scheduled (when pacing decided when), what the queue did
            // (retries, failure), sent, then what the device reported. Device clocks are not
            // trusted to order the history.
            let reported = Set(Receipt.Event.allCases.map(\.rawValue))
            var queue: [HistoryEntry] = []
            var device: [HistoryEntry] = []
            for event in delivery.events {
                let entry = HistoryEntry(event: event.event, at: event.at, detail: event.detail ?? DeliveryEventDetail())
                if reported.contains(event.event) { device.append(entry) } else { queue.append(entry) }
            }
            if let sentAt = delivery.sentAt {
                queue.append(HistoryEntry(event: "sent", at: sentAt, detail: DeliveryEventDetail(attempt: delivery.attempts, providerID: delivery.providerID)))
            }
            // What pacing decided is kept in the delivery row, written with it (no event row).
            let scheduled = delivery.schedule.map { [HistoryEntry(event: "scheduled", at: delivery.createdAt, detail: $0)] } ?? []
            history = [HistoryEntry(event: "queued", at: delivery.createdAt, detail: DeliveryEventDetail())] + scheduled + queue + device
        }
    }

    /// One entry of a delivery's history: its event and time, and the detail's fields beside them.
    package struct HistoryEntry: Encodable {
        package var event: String
        package var at: Int
        package var detail: DeliveryEventDetail

        package enum CodingKeys: String, CodingKey { case event, at }

        package func encode(to encoder: any Encoder) throws {
            try detail.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(event, forKey: .event)
            try container.encode(at.timestamp, forKey: .at)
        }
    }

    package static func add(to router: inout Router, _ context: APIContext) {
        router.add(.get, "/v1/messages/{messageId}/deliveries") { request, parameters in
            let appID = try await context.appID(request)
            let (page, state) = try query(request)
            let (deliveries, total) = try await context.messages.deliveries(
                appID: appID, messageID: parameters["messageId"], state: state, page: page.seqPage, counting: page.wantsTotal)
            return list(deliveries, page, total)
        }

        router.add(.get, "/v1/devices/{deviceId}/deliveries") { request, parameters in
            let appID = try await context.appID(request)
            let (page, state) = try query(request)
            let (deliveries, total) = try await context.messages.deliveries(
                appID: appID, deviceID: parameters["deviceId"], state: state, page: page.seqPage, counting: page.wantsTotal)
            return list(deliveries, page, total)
        }

        router.add(.get, "/v1/deliveries/{deliveryId}") { request, parameters in
            let appID = try await context.appID(request)
            return JSON.response(status: 200, DeliveryBody(try await context.messages.delivery(appID: appID, id: parameters["deliveryId"])))
        }
    }

    private static func query(_ request: HTTPRequest) throws -> (Page, DeliveryState?) {
        let page = try Page(request)
        guard let text = request.query["state"] else { return (page, nil) }
        guard let state = DeliveryState(rawValue: text) else {
            throw APIError.invalid("state", "must be one of " + DeliveryState.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return (page, state)
    }

    private static func list(_ deliveries: [DeliveryRecord], _ page: Page, _ total: Int?) -> HTTPResponse {
        let next = page.next(count: deliveries.count, lastSeq: deliveries.last?.seq)
        return JSON.response(status: 200, ListBody(items: deliveries.map(DeliveryBody.init), nextCursor: next, total: total))
    }
}
