import Foundation
import NotibaseCore
import NotibaseSenders
import Testing
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
@testable import NotibaseServerTestSupport

/// What a provider's answer becomes in the delivery log: every disposition a sender can return ends
/// in the state and history entry docs/server.md documents, the device deactivated only for a dead
/// token.
@Suite struct DeliveryUpdateDecisionTests {
    let policy = RetryPolicy()
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let delivery = ClaimedDelivery(
        seq: 7, id: "d", messageSeq: 1, deviceSeq: 3, platform: .ios, variant: nil, attempts: 1, createdAt: 1_799_999_990_000,
        token: "a1b2c3d4e5f6a7b8c9d0", deviceActive: true)

    /// The documented end of a first attempt with this disposition (the switch has no default: a
    /// new disposition does not compile until it is given one).
    private func documented(_ disposition: SendOutcome.Disposition) -> (state: DeliveryState, deactivatesDevice: Bool) {
        switch disposition {
        case .sent: (.sent, false)
        case .retry: (.retrying, false)
        case .credentialsRejected: (.retrying, false)
        case .failed: (.failed, false)
        case .deactivateDevice: (.failed, true)
        }
    }

    @Test("each disposition ends in its documented state and history entry", arguments: SendOutcome.Disposition.allCases)
    func disposition(_ disposition: SendOutcome.Disposition) {
        let outcome = SendOutcome(disposition: disposition, providerID: "p-1", status: 400, providerReason: "SomeReason", explanation: "Why.")
        let attempt = RetryPolicy.Attempt(number: 1, queuedAt: now.addingTimeInterval(-10), expiresAt: nil, now: now)
        let update = DeliveryUpdate(policy.decide(outcome, attempt: attempt, jitter: 0), for: delivery, outcome: outcome, now: now)
        let expected = documented(disposition)

        #expect(update.seq == delivery.seq)
        #expect(update.state == expected.state)
        #expect(update.event == expected.state.rawValue)
        #expect((update.dueAt != nil) == (expected.state == .retrying), "only a retry is due again")
        #expect((update.deactivateDevice?.seq == delivery.deviceSeq) == expected.deactivatesDevice)
        #expect((update.detail?.deviceDeactivated == true) == expected.deactivatesDevice)
        if expected.state == .sent {
            #expect(update.providerID == "p-1")
            #expect(update.detail == nil, "a send is kept in the delivery row")
        } else {
            #expect(update.detail?.providerReason == "SomeReason")
            #expect(update.detail?.explanation == "Why.")
            #expect(update.detail?.attempt == 1)
            #expect(update.detail?.reason != nil)
            #expect((update.detail?.retryAt != nil) == (expected.state == .retrying))
        }
    }

    @Test func aDeadTokenDeactivatesTheDeviceSinceTheProviderSaysSo() {
        let since = now.addingTimeInterval(-86_400)
        let outcome = SendOutcome(disposition: .deactivateDevice, status: 410, providerReason: "Unregistered", tokenInvalidSince: since)
        let update = DeliveryUpdate(.deactivateDevice(reason: "Unregistered", since: since), for: delivery, outcome: outcome, now: now)
        guard let deactivation = update.deactivateDevice else { Issue.record("the device is not deactivated"); return }
        #expect(deactivation.seq == 3)
        #expect(deactivation.reason == "Unregistered")
        #expect(deactivation.at == 1_799_913_600_000)
    }
}
