import Foundation
import NotibaseCore

/// `POST /v1/receipts`: what the iOS extension and the app report (rendered, opened, action,
/// dismissed), with the client key. Idempotent by receipt ID; a delivery of another app, or one
/// that does not exist, is rejected as unknown.
enum ReceiptsAPI {
    struct ReceiptAnswer: Encodable {
        var receiptId: String
        var deliveryId: String
        var duplicate: Bool
    }

    /// What the delivery log keeps of a receipt.
    struct Detail: Encodable {
        var receiptId: String
        var render: RenderReport?
        var actionId: String?
        var text: String?
    }

    static func add(to router: inout Router, _ context: APIContext) {
        router.add("POST", "/v1/receipts") { request, _ in
            let appID = try await context.appID(request, [.client, .server])
            let receipt = try JSON.decode(Receipt.self, from: request)
            if case .object(let raw) = try JSON.decode(JSONValue.self, from: request), case .string(let occurred)? = raw["occurredAt"], RFC3339.parse(occurred) == nil {
                throw APIError.invalid("occurredAt", "must be an RFC 3339 time such as 2026-12-01T09:30:00Z")
            }
            guard (1...128).contains(receipt.id.unicodeScalars.count) else { throw APIError.invalid("id", "must be 1 to 128 characters (a UUID the device chose)") }
            if receipt.event == .rendered && receipt.render == nil {
                throw APIError(status: 400, code: "missing_field", message: "render is required for a rendered receipt: the extension's render report", field: "render")
            }
            if receipt.event == .action && (receipt.actionID ?? "").isEmpty {
                throw APIError(status: 400, code: "missing_field", message: "actionId is required for an action receipt: the identifier of the tapped button", field: "actionId")
            }
            let detail = JSON.text(Detail(receiptId: receipt.id, render: receipt.render, actionId: receipt.actionID, text: receipt.text))
            let result = Identifier.isWellFormed(receipt.deliveryID)
                ? try await context.store.applyReceipt(appID: appID, receipt, detail: detail, now: context.clock.milliseconds())
                : .unknownDelivery
            switch result {
            case .accepted(let deliveryID):
                context.metrics.recordReceipt(event: receipt.event.rawValue)
                return JSON.response(status: 202, ReceiptAnswer(receiptId: receipt.id, deliveryId: deliveryID, duplicate: false))
            case .duplicate(let deliveryID):
                return JSON.response(status: 200, ReceiptAnswer(receiptId: receipt.id, deliveryId: deliveryID, duplicate: true))
            case .unknownDelivery:
                throw APIError(status: 404, code: "unknown_delivery", message: "no delivery with this ID (and message ID) was sent by this app; post nb_delivery and nb_message from the payload unchanged", field: "deliveryId")
            }
        }
    }
}
