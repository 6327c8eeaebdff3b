import Foundation
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

@Suite("Retry policy (pure state machine)")
struct RetryPolicyTests {
    let policy = RetryPolicy(maxAttempts: 5, baseDelay: .seconds(2), maxDelay: .seconds(60), credentialsDelay: .seconds(300), maxAge: .seconds(3600))
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func attempt(_ number: Int, expiresAt: Date? = nil, queuedSecondsAgo: TimeInterval = 10) -> RetryPolicy.Attempt {
        RetryPolicy.Attempt(number: number, queuedAt: now.addingTimeInterval(-queuedSecondsAgo), expiresAt: expiresAt, now: now)
    }

    @Test func acceptedIsSentWithTheProviderID() {
        #expect(policy.decide(.sent(providerID: "apns-1"), attempt: attempt(1), jitter: 0.5) == .sent(providerID: "apns-1"))
    }

    @Test func permanentFailureGivesUpWithTheProviderReason() {
        let outcome = SendOutcome(disposition: .failed, status: 400, providerReason: "PayloadTooLarge")
        #expect(policy.decide(outcome, attempt: attempt(1), jitter: 0) == .fail(reason: "PayloadTooLarge"))
    }

    @Test func deadTokenDeactivatesTheDevice() {
        let since = now.addingTimeInterval(-86_400)
        let outcome = SendOutcome(disposition: .deactivateDevice, status: 410, providerReason: "Unregistered", tokenInvalidSince: since)
        #expect(policy.decide(outcome, attempt: attempt(1), jitter: 0) == .deactivateDevice(reason: "Unregistered", since: since))
    }

    @Test(arguments: [(1, 1.0, 2.0), (2, 2.0, 4.0), (3, 4.0, 8.0), (4, 8.0, 16.0), (10, 30.0, 60.0)])
    func backoffDoublesWithJitterAndACap(number: Int, low: Double, high: Double) {
        #expect(policy.backoff(afterAttempt: number, jitter: 0).seconds == low)
        #expect(policy.backoff(afterAttempt: number, jitter: 1).seconds == high)
        let middle = policy.backoff(afterAttempt: number, jitter: 0.5).seconds
        #expect(middle > low && middle < high)
    }

    @Test func transientFailureRetriesAfterTheBackoff() {
        let outcome = SendOutcome(disposition: .retry, status: 503, providerReason: "ServiceUnavailable")
        #expect(policy.decide(outcome, attempt: attempt(2), jitter: 0) == .retry(at: now.addingTimeInterval(2), reason: "ServiceUnavailable"))
    }

    @Test func retryAfterFromTheProviderIsHonouredWhenLonger() {
        let outcome = SendOutcome(disposition: .retry, status: 429, providerReason: "TooManyRequests", retryAfter: .seconds(120))
        #expect(policy.decide(outcome, attempt: attempt(1), jitter: 1) == .retry(at: now.addingTimeInterval(120), reason: "TooManyRequests"))
    }

    @Test func givesUpWhenAttemptsRunOut() {
        let outcome = SendOutcome(disposition: .retry, providerReason: "InternalServerError")
        #expect(policy.decide(outcome, attempt: attempt(5), jitter: 0) == .fail(reason: "gave up after 5 attempts: InternalServerError"))
    }

    @Test func givesUpWhenTheNextAttemptWouldComeAfterTheMessageExpires() {
        let outcome = SendOutcome(disposition: .retry, retryAfter: .seconds(100))
        let decision = policy.decide(outcome, attempt: attempt(1, expiresAt: now.addingTimeInterval(50)), jitter: 0)
        guard case .fail(let reason) = decision else { Issue.record("expected fail, got \(decision)"); return }
        #expect(reason.hasPrefix("expired before it could be delivered"))
    }

    @Test func givesUpWhenTheDeliveryIsOlderThanTheMaximumAge() {
        let outcome = SendOutcome(disposition: .retry, explanation: "connection refused")
        let decision = policy.decide(outcome, attempt: attempt(1, queuedSecondsAgo: 3599), jitter: 1)
        #expect(decision == .fail(reason: "expired before it could be delivered (last error: connection refused)"))
    }

    @Test func rejectedCredentialsWaitWithoutSpendingAttempts() {
        let outcome = SendOutcome(disposition: .credentialsRejected, status: 403, providerReason: "InvalidProviderToken")
        #expect(policy.decide(outcome, attempt: attempt(9), jitter: 0)
            == .retry(at: now.addingTimeInterval(300), reason: "credentials rejected: InvalidProviderToken"))
    }
}
