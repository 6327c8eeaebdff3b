import Foundation

extension SimulatedActivityDevice {
    /// The person removes the activity from the Lock Screen: it is dismissed (an active one ends
    /// with it) and its update token is dead.
    public func userDismisses(activity id: String) {
        var effects: [() -> Void] = []
        state.withLock { state in
            guard var entry = state.activities[id], entry.state != .dismissed else { return }
            let wasLive = entry.isLive
            entry.state = .dismissed
            state.deadTokens.formUnion([entry.token].compactMap { $0 })
            state.activities[id] = entry
            let (states, tokens) = (entry.states, entry.tokens)
            effects.append {
                if wasLive { tokens.finish() }
                states.yield(.dismissed)
                states.finish()
            }
        }
        for effect in effects { effect() }
    }

    /// The system rotates the push-to-start token of the attributes type: the app gets the new one
    /// from `pushToStartTokenUpdates`; the old one is dead. Nothing happens before the app asked
    /// for one.
    public func rotatePushToStartToken(forAttributesType type: String) {
        state.withLock { state in
            guard let old = state.pushToStartTokens[type] else { return }
            let token = randomToken()
            state.deadTokens.insert(old)
            state.pushToStartTokens[type] = token
            // Sent under the lock that subscribing takes (see `pushToStartTokens(ofType:)`).
            state.pushToStartStream(type).yield(token)
        }
    }

    /// The system rotates a live activity's update token: the app gets the new one from
    /// `pushTokenUpdates`; the old one is dead.
    public func rotateUpdateToken(ofActivity id: String) {
        state.withLock { state in
            guard var entry = state.activities[id], entry.isLive, let old = entry.token else { return }
            let token = randomToken()
            state.deadTokens.insert(old)
            entry.token = token
            state.activities[id] = entry
            // Sent under the lock that subscribing takes (see `updateTokens(ofActivity:)`).
            entry.tokens.yield(token)
        }
    }

    /// Moves the device's clock on: activities past their stale date become stale, ended ones past
    /// their dismissal time (at most four hours after the end) are dismissed.
    public func advance(by duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var effects: [() -> Void] = []
        state.withLock { state in
            state.now = state.now.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
            for id in state.order {
                guard var entry = state.activities[id], entry.state == .active, let stale = entry.staleDate, stale <= state.now else { continue }
                entry.state = .stale
                state.activities[id] = entry
                let states = entry.states
                effects.append { states.yield(.stale) }
            }
            Self.dismissDue(state: &state, effects: &effects)
        }
        for effect in effects { effect() }
    }
}
