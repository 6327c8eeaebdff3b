import Foundation
import NotibaseCore
@testable import NotibaseServer
@testable import NotibaseDomain
@testable import NotibaseStore
@testable import NotibaseSQLite
@testable import NotibasePostgres
@testable import NotibaseHTTP
@testable import NotibaseOutbound
@testable import NotibaseWebhooks
@testable import NotibaseServices
@testable import NotibaseAPI
@testable import NotibaseDelivery

extension ReceiptsStore {
    /// A receipt applied by the rules the receipts route passes the store (``ReceiptDecision``): the
    /// suites that post receipts to a store directly mean these.
    func applyReceipt(appID: String, _ receipt: Receipt, detail: DeliveryEventDetail, limit: Int, now: Int) async throws -> ReceiptResult {
        try await applyReceipt(appID: appID, receipt, detail: detail, limit: limit, now: now, decision: ReceiptDecision())
    }
}
