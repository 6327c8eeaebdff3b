import Foundation
import NotibaseCore

/// The pure decision behind a registration: add, do nothing, or first find out what is shown.
enum EvictionPlan {
    enum Decision: Sendable, Hashable {
        /// The identifier is registered already.
        case alreadyRegistered
        /// Add it, removing these owned identifiers.
        case add(remove: Set<String>)
        /// Over capacity: the delivered notifications' categories are needed to choose.
        case needDelivered
    }

    /// What is known of the notifications still shown.
    enum Delivered: Sendable, Hashable {
        /// Not asked yet.
        case notAsked
        /// The category identifiers they show.
        case known(Set<String>)
        /// Asking failed: treat every category as shown, so none is evicted.
        case unavailable
    }

    /// How many categories past the overflow an eviction also removes, so that the next ones fit
    /// without another eviction: an eighth of the capacity (none below 8). An eviction needs the
    /// notifications on screen, a round trip to the system that most deliveries then skip.
    static func slack(capacity: Int) -> Int {
        capacity / 8
    }

    /// `inFlightWindow`: a category used this recently may belong to a notification still in an
    /// extension, not yet on screen (and so not among the delivered ones): it is not evicted.
    ///
    /// Over capacity, the least recently used evictable categories are removed: the overflow and
    /// ``slack(capacity:)`` more, when that many can be.
    static func decide(
        registered: Set<String>, adding identifier: String, capacity: Int, lastUsed: [String: Date], delivered: Delivered,
        now: Date = .distantFuture, inFlightWindow: Duration = .seconds(60)
    ) -> Decision {
        if registered.contains(identifier) { return .alreadyRegistered }
        var owned: [String] = []
        owned.reserveCapacity(registered.count)
        for candidate in registered where CategoryIdentifier.isDerived(candidate) { owned.append(candidate) }
        let overflow = owned.count + 1 - capacity
        guard overflow > 0 else { return .add(remove: []) }
        let shown: Set<String>
        switch delivered {
        case .notAsked: return .needDelivered
        case .unavailable: return .add(remove: [])
        case .known(let identifiers): shown = identifiers
        }
        let recent = now.addingTimeInterval(-inFlightWindow.timeInterval)
        var candidates: [(identifier: String, used: Date)] = []
        for candidate in owned where !shown.contains(candidate) {
            let used = lastUsed[candidate] ?? .distantPast
            if used < recent { candidates.append((candidate, used)) }
        }
        candidates.sort { lhs, rhs in lhs.used == rhs.used ? lhs.identifier < rhs.identifier : lhs.used < rhs.used }
        let evictable = candidates.map(\.identifier)
        return .add(remove: Set(evictable.prefix(overflow + slack(capacity: capacity))))
    }
}
