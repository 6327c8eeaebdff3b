package import Synchronization
package import NotibaseStore

/// A fixed number of PostgreSQL connections (``ConnectionLanes``): a caller borrows one for a
/// statement or a transaction, on the connection's own thread, and waits its turn when all are
/// busy.
package final class PostgresPool: Sendable {
    private let lanes: ConnectionLanes<PostgresConnection>
    /// How many connections it holds.
    package var size: Int { lanes.size }
    /// When set (tests), every connection records its statements' plans.
    package let plans = Mutex<QueryPlans?>(nil)

    /// Opens `size` connections to `url`.
    package init(url: String, size: Int) throws {
        lanes = try ConnectionLanes(label: "nb-postgres", size: size) { _ in try PostgresConnection(url: url) }
    }

    /// Runs `body` with a connection of its own, off the shared pool. A broken connection is
    /// re-established first; if that fails, the call throws `unavailable`.
    @discardableResult
    package func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        let plans = self.plans.withLock { $0 }
        return try await lanes.withConnection { connection in
            connection.plans = plans
            try connection.reconnectIfNeeded()
            return try body(connection)
        }
    }

    /// The same in one transaction.
    @discardableResult
    package func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await withConnection { connection in try connection.transaction { try body(connection) } }
    }
}
