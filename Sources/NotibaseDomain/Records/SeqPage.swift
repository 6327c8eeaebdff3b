/// Which end of a list comes first, by the order its rows were written (their `seq`).
package enum ListOrder: String, Sendable, CaseIterable {
    case oldest
    case newest
}

/// One page of a list in `seq` order: at most `limit` rows past `cursor` (the last `seq` of the
/// page before) in `order`, from the list's start without one. A store reads it through an index
/// that holds the rows in `seq` order under the list's key, so a page costs its rows, never a sort
/// of the whole list.
package struct SeqPage: Sendable, Equatable {
    package var order: ListOrder
    package var cursor: Int?
    package var limit: Int

    /// Oldest first, after `seq`.
    package static func after(_ seq: Int, limit: Int) -> SeqPage { SeqPage(order: .oldest, cursor: seq, limit: limit) }

    /// Newest first, before `seq`.
    package static func before(_ seq: Int, limit: Int) -> SeqPage { SeqPage(order: .newest, cursor: seq, limit: limit) }

    /// The comparison with ``bound`` that keeps the rows past the cursor.
    package var comparison: String { order == .oldest ? ">" : "<" }

    /// The cursor, or where the list starts in this order.
    package var bound: Int { cursor ?? (order == .oldest ? 0 : Int.max) }

    /// `ORDER BY column` in this order.
    package func orderBy(_ column: String) -> String { "ORDER BY \(column)" + (order == .oldest ? "" : " DESC") }

    package init(order: ListOrder, cursor: Int? = nil, limit: Int) {
        self.order = order
        self.cursor = cursor
        self.limit = limit
    }
}
