package import NotibaseCore
package import NotibaseDomain

/// What devices report of their deliveries (``ReceiptService``).
package protocol ReceiptsStore: Sendable {
    /// Applies a receipt as `decision` says (the caller passes the receipt rules): reads the facts
    /// it asks for and writes what it returns, in one transaction.
    func applyReceipt(appID: String, _ receipt: Receipt, detail: DeliveryEventDetail, limit: Int, now: Int, decision: some ReceiptDeciding) async throws -> ReceiptResult
}
