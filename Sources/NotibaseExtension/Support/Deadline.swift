import Foundation

/// Waits for a callback-based operation, up to a timeout: whichever comes first wins, exactly once.
///
/// `start` receives `complete`. When the operation's callback arrives it calls `complete` with the
/// work that finishes it (for a category update: the write); the work runs only if the timeout has
/// not already won, so an operation that answers too late does nothing at all. Claiming is atomic:
/// once the work starts, the timeout can no longer fire.
package enum Deadline {
    package struct TimedOut: Error {}

    package static func run<Value: Sendable>(
        timeout: Duration,
        _ start: (_ complete: @escaping @Sendable (_ work: () -> Value) -> Void) -> Void
    ) async throws(TimedOut) -> Value {
        let claimed = Locked(false)
        let claim: @Sendable () -> Bool = {
            claimed.withLock { done in
                if done { return false }
                done = true
                return true
            }
        }
        let result: Value? = await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
            // The timer is not cancelled: once the work has claimed, firing does nothing.
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout.timeInterval) {
                if claim() { continuation.resume(returning: nil) }
            }
            start { work in
                guard claim() else { return }
                continuation.resume(returning: work())
            }
        }
        guard let result else { throw TimedOut() }
        return result
    }
}

extension Duration {
    /// The duration in seconds, as Foundation and Dispatch take it.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
