package import Foundation
import NotibaseCore
package import NotibaseSenders

extension DeliveryUpdate {
    /// What is stored for `delivery` once the retry policy has decided on the provider's
    /// `outcome`: the one place a decision becomes a delivery state (and so its history entry).
    package init(_ decision: RetryPolicy.Decision, for delivery: ClaimedDelivery, outcome: SendOutcome, now: Date) {
        var detail = DeliveryEventDetail(attempt: delivery.attempts, status: outcome.status, providerReason: outcome.providerReason, explanation: outcome.explanation)
        switch decision {
        case .sent(let providerID):
            // Kept in the delivery row (sent_at, provider_id, attempts): no detail to encode.
            self.init(seq: delivery.seq, state: .sent, providerID: providerID, sendFacts: delivery.sendFacts, appWithoutEndpoint: delivery.appWithoutEndpoint)
        case .retry(let at, let reason):
            detail.reason = reason
            detail.retryAt = Timestamp.format(at)
            if outcome.disposition == .credentialsRejected { detail.credentialsRejected = true }
            self.init(seq: delivery.seq, state: .retrying, dueAt: Int(at.timeIntervalSince1970 * 1000), detail: detail)
        case .fail(let reason):
            detail.reason = reason
            self.init(seq: delivery.seq, state: .failed, detail: detail)
        case .deactivateDevice(let reason, let since):
            detail.reason = "the provider reports the device token is no longer valid (\(reason)); the device was deactivated"
            detail.deviceDeactivated = true
            let at = Int((since ?? now).timeIntervalSince1970 * 1000)
            self.init(seq: delivery.seq, state: .failed, detail: detail, deactivateDevice: delivery.deviceSeq.map { ($0, reason, at) })
        }
    }
}
