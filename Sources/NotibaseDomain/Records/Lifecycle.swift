/// The rules of a delivery's and a message's life, stated once: which stored state a worker's
/// outcome or a device's receipt may replace, which deliveries are still owed a send, which
/// messages are still under way and when one is complete. Both stores apply them atomically; the
/// SQL they run is written from the sets below (``sql(_:)``) and the statement below
/// (``completion(time:messages:hasPending:)``), so a rule changed here changes on every backend.
/// It lives beside the stores because it describes the states they store: the decisions in
/// `Delivery/` and the routes read it too, and it reads nothing of theirs (decision 0032).
package enum Lifecycle {
    /// Deliveries the queue still owes a send. A message is complete when none is left; a
    /// cancelled or failed message, a deleted or replaced device, ends them.
    package static let pending: Set<DeliveryState> = [.queued, .retrying]

    /// The stored states a worker's outcome replaces: the pending ones, and `cancelled` (the push
    /// was already on its way when the message was cancelled, and what the provider said is what
    /// happened). Never a state a device reported: a late outcome does not undo a receipt.
    package static let replacedByOutcome: Set<DeliveryState> = pending.union([.cancelled])

    /// Whether a receipt moves a delivery on: only forward, never back (a late `rendered` after
    /// `opened` is kept in the history but does not lower the state).
    package static func receipt(_ reported: DeliveryState, advances current: DeliveryState) -> Bool { reported.rank > current.rank }

    /// Messages due for fan-out once their send time has come.
    package static let toFanOut: Set<MessageState> = [.scheduled, .fanningOut]
    /// Messages whose deliveries are being written or sent: the ones a claim shares between.
    package static let beingSent: Set<MessageState> = [.fanningOut, .sending]
    /// Messages not yet finished: they can be cancelled or failed.
    package static let unfinished: Set<MessageState> = [.scheduled, .fanningOut, .sending]
    /// Messages that ended, whichever way: retention counts their age from then.
    package static let finished: Set<MessageState> = [.completed, .cancelled, .failed]
    /// Messages stopped before all their deliveries were sent: what is still pending of them is
    /// ended, never sent.
    package static let stopped: Set<MessageState> = [.cancelled, .failed]

    /// A message is complete when every delivery is written (it is ``completing``) and none is
    /// ``pending``: it then becomes ``completed``, finished at that time.
    package static let completing: MessageState = .sending
    package static let completed: MessageState = .completed

    /// The one statement that completes messages: those `messages` selects (a condition on the
    /// `messages` row; nil: every message) that are ``completing`` and of which `hasPending` (a
    /// condition that is true while the message in `messages.seq` has a ``pending`` delivery) is
    /// false, finished at `time`. Each backend passes its own placeholders and its own way of
    /// asking for a pending delivery (the fastest its planner offers); the states come from here.
    package static func completion(time: String, messages: String?, hasPending: String) -> String {
        """
        UPDATE messages SET state = '\(completed.rawValue)', finished_at = \(time)
        WHERE \(messages.map { "\($0) AND " } ?? "")state = '\(completing.rawValue)' AND NOT (\(hasPending))
        """
    }

    /// When a fan-out batch's deliveries are written: its clock reading, or later, if one of the
    /// devices it found or its message is stamped later. A fan-out reads the clock before it waits
    /// for the store, so a device can register and commit meanwhile with a later reading (or on a
    /// node whose clock runs ahead): no delivery is stamped older than its device or its message,
    /// which is what lets the integrity check call such a delivery a reused number. What the batch
    /// records of them (a `failed` entry the schedule decided, the message's completion) carries
    /// the same time, so no history entry is older than its delivery.
    package static func deliveriesWritten(now: Int, messageCreated: Int, devicesCreated: [Int]) -> Int {
        max(now, messageCreated, devicesCreated.max() ?? now)
    }

    /// A set of states as an SQL list (`'queued', 'retrying'`), in declaration order. The values are
    /// the enums' own raw values, never input.
    package static func sql<State: CaseIterable & RawRepresentable<String>>(_ states: Set<State>) -> String where State.AllCases.Element: Hashable {
        State.allCases.filter { states.contains($0) }.map { "'\($0.rawValue)'" }.joined(separator: ", ")
    }

    /// The lists the stores' SQL uses, written once.
    package static let pendingSQL = sql(pending)
    package static let replacedByOutcomeSQL = sql(replacedByOutcome)
    package static let toFanOutSQL = sql(toFanOut)
    package static let beingSentSQL = sql(beingSent)
    package static let unfinishedSQL = sql(unfinished)
    package static let finishedSQL = sql(finished)
}
