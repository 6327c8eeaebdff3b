package import Foundation
package import NotibaseSenders

/// Turns a sender's outcome into a delivery's next step: the pure state machine of the queue.
///
/// No I/O and no hidden randomness (the jitter is an argument), so every path is tested directly.
/// Backoff is exponential with "equal jitter" (half fixed, half random) and never shorter than the
/// provider's `Retry-After`. A delivery is given up when its attempts run out or when the next
/// attempt would come after the message expires.
package struct RetryPolicy: Sendable {
    /// Attempts before a transient failure becomes final.
    package var maxAttempts = 10
    /// The delay before the second attempt (before jitter).
    package var baseDelay: Duration = .seconds(2)
    /// The longest delay between attempts.
    package var maxDelay: Duration = .seconds(15 * 60)
    /// How long deliveries wait when the app's credentials are refused (someone must fix them).
    package var credentialsDelay: Duration = .seconds(5 * 60)
    /// The longest a delivery is tried when its message sets no expiry.
    package var maxAge: Duration = .seconds(24 * 3600)

    /// The attempt that just ran.
    package struct Attempt: Sendable {
        /// 1 for the first attempt.
        package var number: Int
        /// When the delivery was queued.
        package var queuedAt: Date
        /// When the message stops being worth delivering (its TTL or expiry), if it says.
        package var expiresAt: Date?
        package var now: Date

        package init(number: Int, queuedAt: Date, expiresAt: Date? = nil, now: Date) {
            self.number = number
            self.queuedAt = queuedAt
            self.expiresAt = expiresAt
            self.now = now
        }
    }

    /// What to do next.
    package enum Decision: Sendable, Equatable {
        /// Accepted by the provider.
        case sent(providerID: String?)
        /// Try again at `at`.
        case retry(at: Date, reason: String)
        /// Give up.
        case fail(reason: String)
        /// The token is dead: give up and deactivate the device.
        case deactivateDevice(reason: String, since: Date?)
    }

    /// The decision for `outcome`; `jitter` is a number in 0..<1.
    package func decide(_ outcome: SendOutcome, attempt: Attempt, jitter: Double) -> Decision {
        let reason = outcome.providerReason ?? outcome.explanation ?? outcome.status.map { "HTTP \($0)" } ?? "no reason given"
        switch outcome.disposition {
        case .sent:
            return .sent(providerID: outcome.providerID)
        case .failed:
            return .fail(reason: reason)
        case .deactivateDevice:
            return .deactivateDevice(reason: reason, since: outcome.tokenInvalidSince)
        case .credentialsRejected:
            let delay = max(credentialsDelay, outcome.retryAfter ?? .zero)
            return retry(after: delay, attempt: attempt, reason: "credentials rejected: \(reason)")
        case .retry:
            guard attempt.number < maxAttempts else {
                return .fail(reason: "gave up after \(attempt.number) attempts: \(reason)")
            }
            let delay = max(backoff(afterAttempt: attempt.number, jitter: jitter), outcome.retryAfter ?? .zero)
            return retry(after: delay, attempt: attempt, reason: reason)
        }
    }

    /// The delay after attempt `number` failed: half of `base × 2^(number-1)` (capped), plus up to
    /// the same again at random.
    package func backoff(afterAttempt number: Int, jitter: Double) -> Duration {
        let exponent = min(max(number - 1, 0), 30)
        let full = min(baseDelay * (1 << exponent), maxDelay)
        let clamped = min(max(jitter, 0), 1)
        return full / 2 + full / 2 * clamped
    }

    private func retry(after delay: Duration, attempt: Attempt, reason: String) -> Decision {
        let next = attempt.now.addingTimeInterval(delay.seconds)
        let deadline = min(attempt.expiresAt ?? .distantFuture, attempt.queuedAt.addingTimeInterval(maxAge.seconds))
        guard next <= deadline else {
            return .fail(reason: "expired before it could be delivered (last error: \(reason))")
        }
        return .retry(at: next, reason: reason)
    }

    package init(maxAttempts: Int = 10, baseDelay: Duration = .seconds(2), maxDelay: Duration = .seconds(15 * 60), credentialsDelay: Duration = .seconds(5 * 60), maxAge: Duration = .seconds(24 * 3600)) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.credentialsDelay = credentialsDelay
        self.maxAge = maxAge
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    package var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
