import Foundation
import NotibaseCore

/// The delivery log: every delivery of a message or to a device, with its history, filtered by
/// state and paged with a cursor; and one delivery by ID.
enum DeliveriesAPI {
    struct DeliveryBody: Encodable {
        var id: String
        var messageId: String
        var deviceId: String?
        var platform: String
        var variant: String?
        var state: String
        var attempts: Int
        var providerId: String?
        var nextAttemptAt: String?
        var createdAt: String
        var updatedAt: String
        var history: [[String: JSONValue]]

        init(_ delivery: DeliveryRecord) {
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
            // In causal order: queued, what the queue did (retries, failure), sent, then what the
            // device reported. Device clocks are not trusted to order the history.
            let reported = Set(Receipt.Event.allCases.map(\.rawValue))
            var queue: [[String: JSONValue]] = []
            var device: [[String: JSONValue]] = []
            for event in delivery.events {
                var entry = event.detail.flatMap { try? JSONDecoder().decode([String: JSONValue].self, from: Data($0.utf8)) } ?? [:]
                entry["event"] = .string(event.event)
                entry["at"] = .string(event.at.timestamp)
                if reported.contains(event.event) { device.append(entry) } else { queue.append(entry) }
            }
            if let sentAt = delivery.sentAt {
                var entry: [String: JSONValue] = ["event": "sent", "at": .string(sentAt.timestamp), "attempt": .integer(delivery.attempts)]
                if let providerID = delivery.providerID { entry["providerId"] = .string(providerID) }
                queue.append(entry)
            }
            history = [["event": "queued", "at": .string(delivery.createdAt.timestamp)]] + queue + device
        }
    }

    static func add(to router: inout Router, _ context: APIContext) {
        router.add("GET", "/v1/messages/{messageId}/deliveries") { request, parameters in
            let appID = try await context.appID(request)
            let (page, state) = try query(request)
            guard let message = try await context.store.message(appID: appID, id: parameters["messageId"]) else { throw APIError.notFound("message") }
            let deliveries = try await context.store.deliveries(messageSeq: message.seq, state: state, afterSeq: page.after, limit: page.limit)
            return list(deliveries, page)
        }

        router.add("GET", "/v1/devices/{deviceId}/deliveries") { request, parameters in
            let appID = try await context.appID(request)
            let (page, state) = try query(request)
            guard let deliveries = try await context.store.deliveries(appID: appID, deviceID: parameters["deviceId"], state: state, afterSeq: page.after, limit: page.limit) else {
                throw APIError.notFound("device")
            }
            return list(deliveries, page)
        }

        router.add("GET", "/v1/deliveries/{deliveryId}") { request, parameters in
            let appID = try await context.appID(request)
            guard let delivery = try await context.store.delivery(appID: appID, id: parameters["deliveryId"]) else { throw APIError.notFound("delivery") }
            return JSON.response(status: 200, DeliveryBody(delivery))
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

    private static func list(_ deliveries: [DeliveryRecord], _ page: Page) -> HTTPResponse {
        JSON.response(status: 200, ListBody(items: deliveries.map(DeliveryBody.init), nextCursor: page.next(count: deliveries.count, lastSeq: deliveries.last?.seq)))
    }
}
