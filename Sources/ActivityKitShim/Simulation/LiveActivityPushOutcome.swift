/// What the simulated device did with a Live Activity push.
public enum LiveActivityPushOutcome: Sendable, Hashable {
    /// A push-to-start made an activity (its system ID).
    case started(activityID: String)
    /// The content state was applied.
    case updated(activityID: String)
    /// The activity ended.
    case ended(activityID: String)
    /// iOS dropped the push, silently, for this reason (the app is not told).
    case ignored(Refusal)

    /// Why a push was dropped.
    public enum Refusal: Sendable, Hashable {
        /// A `start` on a device before iOS 17.2.
        case pushToStartUnsupported(iOSVersion: String)
        /// A token the device never had.
        case unknownToken
        /// A token that was rotated away, or whose activity ended.
        case deadToken
        /// An `attributes-type` the app does not declare.
        case unknownAttributesType(String)
        /// The `attributes` do not decode into the app's type (Swift's error).
        case attributesDoNotDecode(String)
        /// The `content-state` does not decode into the app's `ContentState` (Swift's error).
        case contentStateDoesNotDecode(activityID: String?, reason: String)
        /// A `timestamp` not newer than the last one applied to the activity.
        case outOfOrder(timestamp: Double, lastApplied: Double)
        /// A priority-10 push beyond the budget.
        case budgetExhausted
        /// Not a Live Activity payload (no `aps`, no `event`, no `timestamp`, a wrong type).
        case malformed(String)
    }
}
