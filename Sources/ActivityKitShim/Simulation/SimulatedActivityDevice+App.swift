import Foundation

/// What the app's calls do on the device (`Activity`'s members).
extension SimulatedActivityDevice {
    func request(attributesType type: String, attributes: Data, content: Data, staleDate: Date?, relevanceScore: Double, token: Bool) throws -> String {
        let id = UUID().uuidString
        let stream = try state.withLock { state -> Broadcast<String> in
            guard state.areActivitiesEnabled else { throw ActivityAuthorizationError.denied }
            guard state.appIsInForeground else { throw ActivityAuthorizationError.visibility }
            let entry = ActivityEntry(
                id: id, attributesType: type, attributes: attributes, content: content, staleDate: staleDate,
                relevanceScore: relevanceScore, state: .active, token: token ? randomToken() : nil)
            state.activities[id] = entry
            state.order.append(id)
            return state.activityStream(type)
        }
        stream.yield(id)
        return id
    }

    func update(activity id: String, content: Data, staleDate: Date?, relevanceScore: Double) {
        state.withLock { state in
            guard var entry = state.activities[id], entry.isLive else { return }
            entry.content = content
            entry.staleDate = staleDate
            entry.relevanceScore = relevanceScore
            state.activities[id] = entry
        }
    }

    func end(activity id: String, content: Data?, dismissAt: Date?) {
        var effects: [() -> Void] = []
        state.withLock { state in
            guard var entry = state.activities[id], entry.isLive else { return }
            if let content { entry.content = content }
            entry.state = .ended
            state.deadTokens.formUnion([entry.token].compactMap { $0 })
            let latest = state.now.addingTimeInterval(4 * 3600)
            entry.dismissAt = min(dismissAt ?? latest, latest)
            state.activities[id] = entry
            let (states, tokens) = (entry.states, entry.tokens)
            effects.append { states.yield(.ended); tokens.finish() }
            Self.dismissDue(state: &state, effects: &effects)
        }
        for effect in effects { effect() }
    }

    /// The activities of `type` still on screen (dismissed ones are gone), oldest first.
    func entries(ofType type: String) -> [ActivityEntry] {
        state.withLock { state in state.order.compactMap { state.activities[$0] }.filter { $0.attributesType == type && $0.state != .dismissed } }
    }

    func entry(_ id: String) -> ActivityEntry? {
        state.withLock { $0.activities[id] }
    }

    /// New activities of `type` from now on.
    func activityStarts(ofType type: String) -> AsyncStream<String> {
        state.withLock { $0.activityStream(type) }.subscribe()
    }

    /// The push-to-start tokens of `type`: the current one first (made now if the app never asked),
    /// then rotations. Before iOS 17.2, nothing, ever. Read and subscribed under the device's lock,
    /// as rotations are made and sent under it: a rotation at that moment is either the first token
    /// or the next one, never lost.
    func pushToStartTokens(ofType type: String) -> AsyncStream<Data> {
        guard iOSVersion >= .pushToStart else { return AsyncStream { _ in } }
        return state.withLock { state in
            let token = state.pushToStartTokens[type] ?? randomToken()
            state.pushToStartTokens[type] = token
            return state.pushToStartStream(type).subscribe(startingWith: token)
        }
    }

    /// A live activity's update tokens: the current one first, then rotations, until it ends (an
    /// activity without a token, or no longer live, gives none). Read and subscribed under the
    /// device's lock, as for push-to-start tokens.
    func updateTokens(ofActivity id: String) -> AsyncStream<Data> {
        state.withLock { state in
            guard let entry = state.activities[id], entry.isLive, let token = entry.token else { return AsyncStream { $0.finish() } }
            return entry.tokens.subscribe(startingWith: token)
        }
    }

    func currentPushToStartToken(ofType type: String) -> Data? {
        guard iOSVersion >= .pushToStart else { return nil }
        return state.withLock { $0.pushToStartTokens[type] }
    }
}
