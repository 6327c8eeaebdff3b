import Foundation
package import NotibaseCore
import NotibaseDomain
package import NotibaseHTTP
import NotibaseWebhooks
import NotibaseServices

/// `POST /v1/receipts`: what the iOS extension and the app report (rendered, opened, action,
/// dismissed; received for a silent background push), with the client key and the delivery's receipt signature (`nb_sig` from the
/// payload). Idempotent by receipt ID; a delivery of another app, or one that does not exist, is
/// rejected as unknown; each field and each delivery's number of receipts is bounded.
package enum ReceiptsAPI {
    package struct ReceiptAnswer: Encodable {
        package var receiptId: String
        package var deliveryId: String
        package var duplicate: Bool
    }

    /// The most receipts one delivery keeps (``ReceiptService/maximumReceiptsPerDelivery``).
    package static let maximumReceiptsPerDelivery = ReceiptService.maximumReceiptsPerDelivery
    /// Each field's size, in characters (as the OpenAPI document states them): a receipt is a
    /// small report, and what it holds is shown in the log, so one delivery's log stays small.
    package static func checkBounds(_ receipt: Receipt) throws {
        func limit(_ value: String?, _ characters: Int, _ field: String) throws {
            if let value, value.unicodeScalars.count > characters { throw APIError.invalid(field, "must be at most \(characters) characters") }
        }
        for (value, field) in [(receipt.id, "id"), (receipt.deliveryID, "deliveryId"), (receipt.messageID, "messageId"), (receipt.actionID, "actionId")]
        where value?.hasControlCharacters == true {
            throw APIError.invalid(field, "must hold no control characters")
        }
        try limit(receipt.deliveryID, 64, "deliveryId")
        try limit(receipt.messageID, 64, "messageId")
        try limit(receipt.actionID, 256, "actionId")
        try limit(receipt.text, 2_000, "text")
        try limit(receipt.signature, 64, "signature")
        guard let render = receipt.render else { return }
        try limit(render.categoryID, 256, "render.categoryId")
        try limit(render.imageFailure, 512, "render.imageFailure")
        guard render.buttons.count <= 10, render.buttons.allSatisfy({ $0.unicodeScalars.count <= 256 }) else {
            throw APIError.invalid("render.buttons", "must be at most 10 button IDs of at most 256 characters")
        }
        guard render.diagnostics.count <= 16, render.diagnostics.allSatisfy({ $0.unicodeScalars.count <= 256 }) else {
            throw APIError.invalid("render.diagnostics", "must be at most 16 lines of at most 256 characters")
        }
    }

    package static func add(to router: inout Router, _ context: APIContext) {
        router.add(.post, "/v1/receipts") { request, _ in
            let caller = try await context.caller(request, [.client, .server])
            let appID = try APIContext.appID(of: caller)
            let receipt = try JSON.decode(Receipt.self, from: request)
            guard (1...128).contains(receipt.id.unicodeScalars.count) else { throw APIError.invalid("id", "must be 1 to 128 characters (a UUID the device chose)") }
            try checkBounds(receipt)
            if caller.kind == .client && !context.signer.isReceiptSignature(receipt.signature, deliveryID: receipt.deliveryID) {
                throw APIError(
                    status: 403, code: "invalid_signature",
                    message: receipt.signature == nil
                        ? "signature is required: send nb_sig from the notification's payload unchanged"
                        : "signature is not the one sent with this delivery; send nb_sig from the notification's payload unchanged",
                    field: "signature")
            }
            if receipt.event == .rendered && receipt.render == nil {
                throw APIError(status: 400, code: "missing_field", message: "render is required for a rendered receipt: the extension's render report", field: "render")
            }
            if receipt.event == .action && (receipt.actionID ?? "").isEmpty {
                throw APIError(status: 400, code: "missing_field", message: "actionId is required for an action receipt: the identifier of the tapped button", field: "actionId")
            }
            let result = try await context.receipts.apply(receipt, appID: appID)
            switch result {
            case .accepted(let deliveryID):
                return JSON.response(status: 202, ReceiptAnswer(receiptId: receipt.id, deliveryId: deliveryID, duplicate: false))
            case .duplicate(let deliveryID):
                return JSON.response(status: 200, ReceiptAnswer(receiptId: receipt.id, deliveryId: deliveryID, duplicate: true))
            case .limitReached:
                throw APIError(
                    status: 409, code: "too_many_receipts",
                    message: "this delivery already has \(Self.maximumReceiptsPerDelivery) receipts, the most one delivery keeps", field: "deliveryId")
            case .unknownDelivery:
                throw APIError(status: 404, code: "unknown_delivery", message: "no delivery with this ID (and message ID) was sent by this app; post nb_delivery and nb_message from the payload unchanged", field: "deliveryId")
            }
        }
    }
}
