/// Polls until a condition holds, with a bounded wait: the read-back that confirms a write.
///
/// On iOS the category set written by `setNotificationCategories` may not be what the system
/// reads a moment later. A writer that lets go of its serial section (or calls the content
/// handler) right after writing lets the next reader see the old set, and a notification be drawn
/// without its buttons; so writers read back until their write is visible.
package enum ReadBack {
    /// Checks `visible` now, then after 5, 10, 20, 40, 50, 50… ms, until it is true or `timeout`
    /// has passed; returns whether it became true.
    /// Stops early, returning false, once `giveUp` is true.
    package static func poll(timeout: Duration, giveUp: () -> Bool = { false }, _ visible: () async -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        var pause = Duration.milliseconds(5)
        while !giveUp() {
            if await visible() { return true }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return false }
            try? await Task.sleep(for: min(pause, remaining))
            pause = min(pause * 2, .milliseconds(50))
        }
        return false
    }
}
