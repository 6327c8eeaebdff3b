/// A first-in, first-out lock for async code: one holder at a time, across any number of `await`s.
///
/// An actor is not enough for a read-modify-write that awaits in the middle: the actor re-enters at
/// every `await`, so two registrations could both read the old set and the second write would drop
/// the first one's category. This lock is held for the whole read-modify-write.
package final class AsyncMutex: Sendable {
    private struct State {
        var locked = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    package init() {}

    /// Runs `body` while holding the lock; waiters are served in arrival order.
    package func withLock<Result: Sendable, Failure: Error>(_ body: () async throws(Failure) -> Result) async throws(Failure) -> Result {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        // Uncontended: take it without suspending.
        let taken = state.withLock { state -> Bool in
            guard !state.locked else { return false }
            state.locked = true
            return true
        }
        if taken { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                if state.locked {
                    state.waiters.append(continuation)
                    return false
                }
                state.locked = true
                return true
            }
            if granted { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.locked = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
