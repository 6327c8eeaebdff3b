/// How many Live Activity pushes at `apns-priority: 10` the system applies in a window. Apple
/// documents that priority 10 draws on a budget the system enforces and that it throttles the
/// pushes beyond it, without publishing the numbers; priority 5 does not draw on it. The
/// simulation drops a priority-10 push beyond the budget (``LiveActivityPushOutcome/Refusal/budgetExhausted``):
/// a throttled update may never be shown, and counting on a late one would be kinder than iOS.
/// Set the numbers a test needs; the defaults are a guess, not Apple's.
public struct Priority10Budget: Sendable, Hashable {
    /// Pushes applied per window.
    public var pushes: Int
    /// The sliding window.
    public var window: Duration

    /// A budget of `pushes` per `window`.
    public init(pushes: Int = 10, window: Duration = .seconds(3600)) {
        self.pushes = pushes
        self.window = window
    }
}
