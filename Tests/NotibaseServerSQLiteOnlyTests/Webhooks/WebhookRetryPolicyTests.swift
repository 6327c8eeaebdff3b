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
import NotibaseTestSupport

/// The retry state machine alone: what becomes of a batch after each attempt (no store: the
/// PostgreSQL pass skips it).
@Suite struct WebhookRetryPolicyTests {
    let policy = WebhookRetryPolicy()
    let inFlight = WebhookDispatchState(cursor: 10, batchID: "msg_a", batchLast: 20)

    @Test func anAnswer2xxMovesPastTheBatchAndForgetsTheFailures() {
        var failing = inFlight
        failing.failingSince = 1
        failing.batchAttempts = 4
        let (next, retry) = policy.after(.answered(status: 204, retryAfter: nil), failing, now: 100, random: 0.5)
        #expect(next == WebhookDispatchState(cursor: 20) && retry == nil)
    }

    @Test func failuresWaitLongerEachTimeWithJitter() {
        var state = inFlight
        var waits: [Int] = []
        for _ in 0..<10 {
            let (next, retry) = policy.after(.timedOut, state, now: 0, random: 0.5)
            waits.append(retry ?? -1)
            state = next
        }
        #expect(waits == [5_000, 60_000, 300_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000, 43_200_000, 43_200_000])
        #expect(state.batchID == "msg_a" && state.cursor == 10 && state.failingSince == 0)
        let low = policy.after(.failed(reason: "reset"), inFlight, now: 0, random: 0).nextRetryAt
        let high = policy.after(.failed(reason: "reset"), inFlight, now: 0, random: 0.999_999).nextRetryAt
        #expect(low == 4_000 && high.map { (5_999...6_000).contains($0) } == true)
    }

    @Test func retryAfterOnA429LengthensTheWait() {
        let (_, retry) = policy.after(.answered(status: 429, retryAfter: .seconds(120)), inFlight, now: 1_000, random: 0.5)
        #expect(retry == 121_000)
        let capped = policy.after(.answered(status: 429, retryAfter: .seconds(10 * 86_400)), inFlight, now: 0, random: 0.5).nextRetryAt
        #expect(capped == 86_400_000)
    }

    /// `Retry-After: 0` (or an HTTP date already past, which reads as zero) never shortens the
    /// schedule: the waits are the schedule's, as for any other failure, so an endpoint answering
    /// 429 at once cannot make the dispatcher write an attempt every few milliseconds (issue 43).
    @Test(arguments: [Duration.zero, .seconds(1)])
    func aRetryAfterShorterThanTheScheduleIsNotTaken(retryAfter: Duration) {
        var state = inFlight
        var waits: [Int] = []
        for _ in 0..<3 {
            let (next, retry) = policy.after(.answered(status: 429, retryAfter: retryAfter), state, now: 0, random: 0.5)
            waits.append(retry ?? -1)
            state = next
        }
        #expect(waits == [5_000, 60_000, 300_000])
        let soonest = policy.after(.answered(status: 429, retryAfter: retryAfter), inFlight, now: 0, random: 0).nextRetryAt
        #expect(soonest == 4_000)
    }

    @Test(arguments: [400, 401, 404, 410, 422])
    func aFinal4xxGivesTheBatchUpOnItsThirdTry(status: Int) {
        var state = inFlight
        for _ in 0..<2 {
            state = policy.after(.answered(status: status, retryAfter: nil), state, now: 0, random: 0.5).0
            #expect(state.batchID == "msg_a")
        }
        let (given, retry) = policy.after(.answered(status: status, retryAfter: nil), state, now: 0, random: 0.5)
        #expect(given.cursor == 20 && given.batchID == nil && given.failingSince == 0 && retry == nil)
    }

    @Test(arguments: [408, 409, 429, 500, 503, 302])
    func otherAnswersAreRetried(status: Int) {
        var state = inFlight
        for _ in 0..<5 { state = policy.after(.answered(status: status, retryAfter: nil), state, now: 0, random: 0.5).0 }
        #expect(state.batchID == "msg_a" && state.cursor == 10)
    }

    @Test func threeDaysOfFailuresDisableTheEndpointAndTheLastTryIsAtThreeDays() {
        var state = inFlight
        state.failingSince = 0
        state.batchAttempts = 8
        let threeDays = 3 * 86_400_000
        let (last, retry) = policy.after(.timedOut, state, now: threeDays - 3_600_000, random: 0.5)
        #expect(retry == threeDays && last.enabled)
        let (disabled, none) = policy.after(.answered(status: 500, retryAfter: nil), last, now: threeDays, random: 0.5)
        #expect(!disabled.enabled && none == nil && disabled.disabledReason?.contains("answered 500") == true)
        #expect(disabled.batchID == "msg_a")
    }
}
