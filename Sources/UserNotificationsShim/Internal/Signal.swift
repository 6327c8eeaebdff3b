import Foundation

/// Counts events fired from any thread and lets one thread wait for the first, with a deadline.
///
/// Firing only counts and wakes waiters under the lock; it never blocks, so it can't deadlock
/// whatever thread fires it, and however often. (`@unchecked Sendable`: a tiny class whose state is
/// reached only under its own condition lock.)
final class Signal: @unchecked Sendable {
    private let condition = NSCondition()
    private var fired = 0

    func fire() {
        condition.lock()
        fired += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the signal has fired or `deadline` passes; returns whether it fired.
    func wait(until deadline: ContinuousClock.Instant) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while fired == 0 {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return false }
            _ = condition.wait(until: Date(timeIntervalSinceNow: remaining.seconds))
        }
        return true
    }

    /// How many times it has fired.
    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return fired
    }
}
