import Foundation
import NotibaseExtension

/// Runs the outbox's send attempts one at a time, retrying with exponential backoff and jitter
/// until an attempt leaves nothing pending. A kick while an attempt runs schedules one more.
final class Flusher: Sendable {
    private struct State {
        var running = false
        var again = false
    }

    private let state = Locked(State())
    private let initialDelay: Duration
    private let maximumDelay: Duration

    init(initialDelay: Duration, maximumDelay: Duration) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
    }

    /// Starts attempts with `attempt` (true: nothing left) unless they are already running.
    func kick(_ attempt: @escaping @Sendable () async -> Bool) {
        let start = state.withLock { state -> Bool in
            if state.running {
                state.again = true
                return false
            }
            state.running = true
            return true
        }
        guard start else { return }
        let initialDelay = initialDelay
        let maximumDelay = maximumDelay
        let state = state
        Task.detached {
            var delay = initialDelay
            while true {
                let done = await attempt()
                let rerun = state.withLock { state -> Bool in
                    let again = state.again
                    state.again = false
                    if done && !again { state.running = false }
                    return !done || again
                }
                guard rerun else { return }
                if !done {
                    // Jitter: somewhere between half the delay and the whole delay.
                    try? await Task.sleep(for: delay / 2 + delay / 2 * Double.random(in: 0...1))
                    delay = min(delay * 2, maximumDelay)
                }
            }
        }
    }
}
