import Synchronization
package import NotibaseDomain

/// Wakes a waiting loop when there may be work (a message to fan out, deliveries to send), so it
/// need not wait for its next look. Only a wake-up: the loops still look on their own every poll
/// interval, so a lost signal (a node that was restarting, a dropped listener) delays nothing
/// beyond that.
///
/// A loop reads ``generation`` before it looks for work, and passes it to ``wait(since:timeout:)``:
/// a signal that came in between (while it was looking) ends the wait at once, so none is missed.
package final class WorkSignal: Sendable {
    private struct State {
        package var generation = 0
        package var nextWaiter = 0
        package var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    package init() {}

    package var generation: Int { state.withLock { $0.generation } }

    /// Ends every wait in progress, and the next one that started from an older generation.
    package func notify() {
        let waiters = state.withLock { state in
            state.generation &+= 1
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once notified after `generation`, after `timeout`, or when the task is cancelled.
    package func wait(since generation: Int, timeout: Duration) async {
        let id = state.withLock { state -> Int in
            defer { state.nextWaiter &+= 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waiting = state.withLock { state -> Bool in
                    guard state.generation == generation, !Task.isCancelled else { return false }
                    state.waiters[id] = continuation
                    return true
                }
                guard waiting else { return continuation.resume() }
                Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    self?.end(id)
                }
            }
        } onCancel: {
            end(id)
        }
    }

    private func end(_ id: Int) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
    }
}

/// A node's two wake-ups: for its fan-out (a message is due) and for its workers (deliveries are
/// due). The API and the fan-out signal them directly; on PostgreSQL the store's listener signals
/// them for work another node made.
package struct WorkSignals: Sendable {
    package let fanOut = WorkSignal()
    package let delivery = WorkSignal()

    package func notify(_ work: AnnouncedWork) {
        switch work {
        case .fanOut: fanOut.notify()
        case .delivery: delivery.notify()
        case .apps: break
        }
    }

    package init() {}
}
