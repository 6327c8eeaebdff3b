import Synchronization
package import NotibaseDomain
import NotibaseStore
import NotibaseOutbound

/// Every name lookup of the webhooks, bounded (docs/decisions/0036, issue 43): each caller waits
/// at most until its own deadline, whatever DNS does; an app has at most ``perApp`` lookups
/// running, the rest waiting their turn in order, so one app's names that never resolve hold a few
/// of the resolver's threads and none of another app's turns; and callers asking for a name that
/// is being looked up share that lookup (sixty-four endpoints on one host make one query).
package final class WebhookLookups: Sendable {
    /// The most lookups one app has running at once.
    package static let perApp = 4
    /// How long registration waits for a host name to resolve: an answer within a few seconds
    /// whatever DNS does (issue 43). An attempt waits until its own deadline.
    package static let registrationTimeout: Duration = .seconds(5)

    private let resolver: any WebhookResolver
    private let perApp: Int

    private struct Waiter {
        package var id: Int
        package var continuation: CheckedContinuation<[IPAddress]?, Never>
    }

    private struct State {
        package var nextID = 0
        /// Lookups running, by app.
        package var running: [String: Int] = [:]
        /// The callers of each lookup running, by host.
        package var waiters: [String: [Waiter]] = [:]
        /// Lookups waiting for their app's turn, by app, in order.
        package var queued: [String: [(host: String, waiter: Waiter)]] = [:]
        /// Callers not yet queued, and those of them whose deadline passed before they were.
        package var arriving: Set<Int> = []
        package var expired: Set<Int> = []
    }

    private let state = Mutex(State())

    package init(resolver: any WebhookResolver, perApp: Int = WebhookLookups.perApp) {
        self.resolver = resolver
        self.perApp = max(1, perApp)
    }

    /// The addresses `host` resolves to, looked up for `appID`; nil when the answer has not come
    /// by `deadline` (the lookup may go on, and its answer serve others waiting for it).
    package func addresses(of host: String, appID: String, deadline: ContinuousClock.Instant) async -> [IPAddress]? {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.arriving.insert(state.nextID)
            return state.nextID
        }
        let timer = Task { [self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            if !Task.isCancelled { expire(id, appID: appID, host: host) }
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            enqueue(host, appID: appID, Waiter(id: id, continuation: continuation))
        }
    }

    private func enqueue(_ host: String, appID: String, _ waiter: Waiter) {
        let start = state.withLock { state -> Bool? in
            state.arriving.remove(waiter.id)
            if state.expired.remove(waiter.id) != nil { return nil }
            if state.waiters[host] != nil {
                state.waiters[host]!.append(waiter)
                return false
            }
            guard state.running[appID, default: 0] < perApp else {
                state.queued[appID, default: []].append((host, waiter))
                return false
            }
            state.running[appID, default: 0] += 1
            state.waiters[host] = [waiter]
            return true
        }
        switch start {
        case nil: waiter.continuation.resume(returning: nil)
        case true?: look(up: host, appID: appID)
        case false?: break
        }
    }

    private func look(up host: String, appID: String) {
        Task { [self, resolver] in
            let found = await resolver.addresses(of: host)
            let (done, next) = state.withLock { state -> ([Waiter], String?) in
                let done = state.waiters.removeValue(forKey: host) ?? []
                state.running[appID, default: 1] -= 1
                // The app's next lookup in order, joined to one running for its host if there is one.
                while var queue = state.queued[appID], !queue.isEmpty {
                    let (nextHost, waiter) = queue.removeFirst()
                    state.queued[appID] = queue.isEmpty ? nil : queue
                    if state.waiters[nextHost] != nil {
                        state.waiters[nextHost]!.append(waiter)
                        continue
                    }
                    state.running[appID, default: 0] += 1
                    state.waiters[nextHost] = [waiter]
                    return (done, nextHost)
                }
                if state.running[appID] == 0 { state.running[appID] = nil }
                return (done, nil)
            }
            for waiter in done { waiter.continuation.resume(returning: found) }
            if let next { look(up: next, appID: appID) }
        }
    }

    private func expire(_ id: Int, appID: String, host: String) {
        let waiter = state.withLock { state -> Waiter? in
            if let index = state.waiters[host]?.firstIndex(where: { $0.id == id }) {
                return state.waiters[host]!.remove(at: index)
            }
            if let index = state.queued[appID]?.firstIndex(where: { $0.waiter.id == id }) {
                let waiter = state.queued[appID]!.remove(at: index).waiter
                if state.queued[appID]!.isEmpty { state.queued[appID] = nil }
                return waiter
            }
            if state.arriving.contains(id) { state.expired.insert(id) }
            return nil
        }
        waiter?.continuation.resume(returning: nil)
    }
}
