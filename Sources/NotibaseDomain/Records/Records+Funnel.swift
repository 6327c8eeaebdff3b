/// What a history entry's detail (the JSON object the server writes, ``DeliveryEventDetail``) must
/// hold for the entry to count; each store writes it with its own JSON functions.
package enum DetailCondition: Sendable, Equatable {
    case any
    /// The value at this path is an array with an element.
    case nonEmptyArray([String])
    /// The value at this path is `true`.
    case isTrue([String])
}

/// A step devices report, counted once per delivery however many of its receipts say it.
package struct ReportedStep: Sendable, Equatable {
    package var name: String
    /// The history entry's event.
    package var event: String
    package var detail: DetailCondition = .any
}

/// What a message's funnel counts, stated by the caller (the funnel's rules live in one place);
/// each store writes them in its SQL, runs it and hands back the counts. The names are the server's
/// own constants, never input.
package struct FunnelRules: Sendable, Equatable {
    package var reported: [ReportedStep]
    /// The event counted once per delivery and button, by the detail key naming the button.
    package var actionEvent: String
    package var actionKey: String
    /// The state of a failed delivery and the event of its failure entries: it counts under its
    /// last such entry's reason, the first of `reasonKeys` the detail holds, else `fallbackReason`.
    package var failed: String
    package var reasonKeys: [String]
    package var fallbackReason: String
    /// The detail keys shown beside a reason: an example of what happened, and what to do.
    package var exampleKey: String
    package var explanationKey: String
}

/// What a store counted by the rules.
package struct FunnelCounts: Sendable {
    /// Deliveries by state.
    package var byState: [String: Int] = [:]
    /// Deliveries the provider accepted.
    package var sent = 0
    /// Deliveries that reached each reported step, by its name.
    package var reported: [String: Int] = [:]
    /// Deliveries on which each button was tapped, by the button's key ("" when an entry has none).
    package var actions: [String: Int] = [:]
    /// Failed deliveries by reason, most first.
    package var failures: [(reason: String, count: Int, example: String?, explanation: String?)] = []

    package init(byState: [String: Int] = [:], sent: Int = 0, reported: [String: Int] = [:], actions: [String: Int] = [:], failures: [(reason: String, count: Int, example: String?, explanation: String?)] = []) {
        self.byState = byState
        self.sent = sent
        self.reported = reported
        self.actions = actions
        self.failures = failures
    }
}

/// The funnel's rules, passed to a store by its caller: what to count, and the funnel the counts make.
package protocol FunnelCounting: Sendable {
    var rules: FunnelRules { get }
    func funnel(_ counts: FunnelCounts) -> Funnel
}
