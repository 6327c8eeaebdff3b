package import NotibaseCore
package import NotibaseSenders
package import NotibaseDomain
package import NotibaseStore
import NotibaseWebhooks

/// Receipts: what a device reports of a delivery (rendered, opened, an action, dismissed), added
/// to its log once (``ReceiptsStore/applyReceipt(appID:_:detail:limit:now:decision:)``, as
/// ``ReceiptDecision`` decides) and counted. `ReceiptsAPI` checks the body, the key and the
/// signature first (docs/decisions/0033).
package struct ReceiptService: Sendable {
    let store: any ReceiptsStore
    package let clock: WallClock
    package let metrics: Metrics

    /// The most receipts one delivery keeps: a notification is rendered once and tapped a few
    /// times; past this, receipts are refused rather than let one delivery's log grow without end.
    package static let maximumReceiptsPerDelivery = 32

    /// Applies a checked receipt of `appID`'s: a delivery ID this server could not have made is
    /// unknown without a look in the store.
    package func apply(_ receipt: Receipt, appID: String) async throws -> ReceiptResult {
        let detail = DeliveryEventDetail(receiptID: receipt.id, render: receipt.render, actionID: receipt.actionID, text: receipt.text)
        let result = Identifier.isWellFormed(receipt.deliveryID)
            ? try await store.applyReceipt(
                appID: appID, receipt, detail: detail, limit: Self.maximumReceiptsPerDelivery, now: clock.milliseconds(), decision: ReceiptDecision())
            : .unknownDelivery
        if case .accepted = result { metrics.recordReceipt(event: receipt.event.rawValue) }
        return result
    }

    package init(store: any ReceiptsStore, clock: WallClock, metrics: Metrics) {
        self.store = store
        self.clock = clock
        self.metrics = metrics
    }
}
