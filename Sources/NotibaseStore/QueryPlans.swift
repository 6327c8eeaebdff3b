import Synchronization
import NotibaseDomain

/// The plan of each distinct statement a store runs, as its database reports it, recorded when
/// the statement is first prepared on a connection: what the plan tests read to prove that every
/// statement on the request and delivery paths reaches the tables through an index bounded by
/// what it returns (docs/decisions/0014). Nothing is recorded unless a test hands one to a store.
package final class QueryPlans: Sendable {
    package struct Plan: Sendable {
        package var sql: String
        /// SQLite: `EXPLAIN QUERY PLAN`'s lines. PostgreSQL: `EXPLAIN (FORMAT JSON)`, planned with
        /// sequential scans disabled, so a sequential scan in it means no index could serve.
        package var plan: String
    }

    private let plans = Mutex<[String: Plan]>([:])

    package init() {}

    /// Whether `sql` reads or writes rows (transaction control and settings have no plan).
    package static func isQuery(_ sql: String) -> Bool {
        let head = sql.drop(while: { $0.isWhitespace }).prefix(6).uppercased()
        return ["SELECT", "INSERT", "UPDATE", "DELETE"].contains(head) || head.hasPrefix("WITH")
    }

    package func has(_ sql: String) -> Bool { plans.withLock { $0[sql] != nil } }

    package func record(sql: String, plan: String) {
        plans.withLock { $0[sql] = Plan(sql: sql, plan: plan) }
    }

    package var all: [Plan] { plans.withLock { Array($0.values) }.sorted { $0.sql < $1.sql } }
}
