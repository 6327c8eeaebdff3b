public import Foundation

extension SimulatedActivityDevice {
    /// Delivers an APNs `liveactivity` push (its JSON body) sent to `token` at `priority` (the
    /// `apns-priority` header), as iOS does: a `start` needs iOS 17.2 and the current push-to-start
    /// token of its `attributes-type`; an `update` or `end` needs the activity's live update token;
    /// a `timestamp` not newer than the last applied, a content state that does not decode into the
    /// app's `ContentState` and a priority-10 push beyond the budget are dropped. The outcome is
    /// also kept in ``outcomes``; the app sees only what iOS shows it (new activities, states,
    /// tokens).
    @discardableResult
    public func deliver(_ payload: Data, to token: Data, priority: Int = 10) -> LiveActivityPushOutcome {
        var effects: [() -> Void] = []
        let outcome = state.withLock { state -> LiveActivityPushOutcome in
            let outcome = Self.apply(payload, token: token, priority: priority, iOSVersion: iOSVersion, to: &state, effects: &effects)
            state.outcomes.append(outcome)
            return outcome
        }
        for effect in effects { effect() }
        return outcome
    }

    private static func apply(
        _ payload: Data, token: Data, priority: Int, iOSVersion: IOSVersion, to state: inout DeviceState, effects: inout [() -> Void]
    ) -> LiveActivityPushOutcome {
        let (parsed, refusal) = LiveActivityPush.parse(payload)
        guard let push = parsed else { return .ignored(refusal ?? .malformed("unreadable")) }
        if push.event == "start" {
            guard iOSVersion >= .pushToStart else { return .ignored(.pushToStartUnsupported(iOSVersion: "\(iOSVersion)")) }
            return start(push, token: token, priority: priority, state: &state, effects: &effects)
        }
        guard let id = state.order.first(where: { state.activities[$0]?.isLive == true && state.activities[$0]?.token == token }),
            var entry = state.activities[id]
        else { return .ignored(state.deadTokens.contains(token) ? .deadToken : .unknownToken) }
        if let last = entry.lastTimestamp, push.timestamp <= last { return .ignored(.outOfOrder(timestamp: push.timestamp, lastApplied: last)) }
        if push.event == "update", push.contentState == nil { return .ignored(.malformed("an update without content-state")) }
        if let content = push.contentState, let problem = state.declared[entry.attributesType]?.problemWithContentState(content) {
            return .ignored(.contentStateDoesNotDecode(activityID: id, reason: problem))
        }
        guard spendBudget(priority: priority, state: &state) else { return .ignored(.budgetExhausted) }
        entry.lastTimestamp = push.timestamp
        if let content = push.contentState { entry.content = content }
        if push.staleDate != nil || push.contentState != nil { entry.staleDate = push.staleDate }
        if let score = push.relevanceScore { entry.relevanceScore = score }
        let states = entry.states
        if push.event == "end" {
            entry.state = .ended
            state.deadTokens.formUnion([entry.token].compactMap { $0 })
            let tokens = entry.tokens
            effects.append { states.yield(.ended); tokens.finish() }
            // iOS keeps an ended activity up to four hours; a dismissal date in the past removes it at once.
            let latest = state.now.addingTimeInterval(4 * 3600)
            entry.dismissAt = min(push.dismissalDate ?? latest, latest)
            state.activities[id] = entry
            dismissDue(state: &state, effects: &effects)
            return .ended(activityID: id)
        }
        if entry.state == .stale, (entry.staleDate ?? .distantFuture) > state.now {
            entry.state = .active
            effects.append { states.yield(.active) }
        }
        state.activities[id] = entry
        return .updated(activityID: id)
    }

    private static func start(
        _ push: LiveActivityPush, token: Data, priority: Int, state: inout DeviceState, effects: inout [() -> Void]
    ) -> LiveActivityPushOutcome {
        guard let type = push.attributesType, let attributes = push.attributes, let content = push.contentState else {
            return .ignored(.malformed("a start needs attributes-type, attributes and content-state"))
        }
        guard state.pushToStartTokens[type] == token else {
            return .ignored(state.deadTokens.contains(token) ? .deadToken : .unknownToken)
        }
        guard let declared = state.declared[type] else { return .ignored(.unknownAttributesType(type)) }
        if let problem = declared.problemWithAttributes(attributes) { return .ignored(.attributesDoNotDecode(problem)) }
        if let problem = declared.problemWithContentState(content) { return .ignored(.contentStateDoesNotDecode(activityID: nil, reason: problem)) }
        guard spendBudget(priority: priority, state: &state) else { return .ignored(.budgetExhausted) }
        let id = UUID().uuidString
        var entry = ActivityEntry(
            id: id, attributesType: type, attributes: attributes, content: content, staleDate: push.staleDate,
            relevanceScore: push.relevanceScore ?? 0, state: .active, token: push.inputPushToken ? randomToken() : nil)
        entry.lastTimestamp = push.timestamp
        state.activities[id] = entry
        state.order.append(id)
        let stream = state.activityStream(type)
        effects.append { stream.yield(id) }
        return .started(activityID: id)
    }

    /// Counts a priority-10 push against the budget; false when it is spent.
    private static func spendBudget(priority: Int, state: inout DeviceState) -> Bool {
        guard priority == 10 else { return true }
        let (seconds, attoseconds) = state.budget.window.components
        let windowStart = state.now.addingTimeInterval(-(Double(seconds) + Double(attoseconds) / 1e18))
        state.budgetSpent.removeAll { $0 <= windowStart }
        guard state.budgetSpent.count < state.budget.pushes else { return false }
        state.budgetSpent.append(state.now)
        return true
    }

    /// Dismisses the ended activities whose time has come.
    static func dismissDue(state: inout DeviceState, effects: inout [() -> Void]) {
        for id in state.order {
            guard var entry = state.activities[id], entry.state == .ended, let at = entry.dismissAt, at <= state.now else { continue }
            entry.state = .dismissed
            state.activities[id] = entry
            let states = entry.states
            effects.append { states.yield(.dismissed); states.finish() }
        }
    }
}
