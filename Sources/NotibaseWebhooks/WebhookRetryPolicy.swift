package import NotibaseDomain
import NotibaseStore
import NotibaseOutbound
/// What becomes of a batch after one attempt (a pure state machine: the dispatcher runs it and
/// stores what it returns). The schedule is in docs/server.md ("Webhooks").
package struct WebhookRetryPolicy: Sendable {
    /// The wait after the first failed attempt, the second, …; the last repeats.
    package var delays: [Duration] = [
        .seconds(5), .seconds(60), .seconds(300), .seconds(1_800), .seconds(3_600), .seconds(7_200), .seconds(14_400), .seconds(28_800),
        .seconds(43_200),
    ]
    /// Each wait is scaled by a factor from `1 - jitter` to `1 + jitter`.
    package var jitter = 0.2
    /// An endpoint that fails everything this long is disabled.
    package var giveUpAfter: Duration = .seconds(3 * 24 * 3_600)
    /// Tries of a batch answered with a 4xx other than 408, 409 and 429 before it is given up.
    package var finalAnswerTries = 3
    /// The longest `Retry-After` honoured; a shorter wait than the schedule's is not.
    package var longestRetryAfter: Duration = .seconds(24 * 3_600)

    /// The state after an attempt of the batch in flight (`state.batchLast` set) that ended with
    /// `outcome` at `now`, with `random` in 0..<1 for the jitter; and when the batch is tried again.
    package func after(_ outcome: WebhookAttempt.Outcome, _ state: WebhookDispatchState, now: Int, random: Double) -> (WebhookDispatchState, nextRetryAt: Int?) {
        var next = state
        next.batchAttempts += 1
        if case .answered(let status, _) = outcome, (200..<300).contains(status) {
            return (Self.done(next), nil)
        }
        let failingSince = state.failingSince ?? now
        next.failingSince = failingSince
        if now - failingSince >= giveUpAfter.milliseconds {
            next.enabled = false
            next.nextAttemptAt = nil
            next.disabledReason = "every attempt failed for \(Int(giveUpAfter.seconds / 3_600)) hours (since \(failingSince.timestamp)); the last: \(Self.describe(outcome))"
            return (next, nil)
        }
        if case .answered(let status, _) = outcome, Self.isFinal(status), next.batchAttempts >= finalAnswerTries {
            // Given up: the batch's events are skipped (the attempts log says so), the next batch follows now.
            return (Self.done(next, keepFailing: true), nil)
        }
        var wait = delays[min(next.batchAttempts, delays.count) - 1].milliseconds
        wait = Int(Double(wait) * (1 - jitter + 2 * jitter * random))
        if case .answered(429, let retryAfter?) = outcome {
            // It may lengthen the wait, never shorten it: `Retry-After: 0` (or a date past) made
            // every attempt the next at once, a write each and the attempts log overwritten in
            // seconds (issue 43).
            wait = max(wait, min(retryAfter, longestRetryAfter).milliseconds)
        }
        let at = min(now + wait, failingSince + giveUpAfter.milliseconds)
        next.nextAttemptAt = at
        return (next, at)
    }

    /// 4xx answers that say the request itself is wrong, so trying it again is unlikely to help.
    package static func isFinal(_ status: Int) -> Bool { (400..<500).contains(status) && ![408, 409, 429].contains(status) }

    private static func done(_ state: WebhookDispatchState, keepFailing: Bool = false) -> WebhookDispatchState {
        var next = state
        next.cursor = state.batchLast ?? state.cursor
        next.batchID = nil
        next.batchLast = nil
        next.batchAttempts = 0
        next.nextAttemptAt = nil
        if !keepFailing { next.failingSince = nil }
        return next
    }

    /// An outcome in words, for the attempts log and a disabled endpoint's reason.
    package static func describe(_ outcome: WebhookAttempt.Outcome) -> String {
        switch outcome {
        case .answered(let status, _): "answered \(status)"
        case .refused(let refusal): "refused: \(refusal.reason.rawValue) (\(refusal.detail))"
        case .timedOut: "timed out"
        case .failed(let reason): "failed: \(reason)"
        }
    }
}

extension Duration {
    package var milliseconds: Int { Int(components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000) }
}
