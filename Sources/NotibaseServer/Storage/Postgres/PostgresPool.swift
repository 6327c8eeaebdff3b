import Dispatch
import Synchronization

/// A fixed number of PostgreSQL connections, each used from a thread of its own (libpq blocks),
/// so waiting on the database never holds a thread of Swift's shared pool. A caller borrows a
/// lane for one unit of work (a statement or a transaction), and waits its turn when all are busy.
final class PostgresPool: Sendable {
    /// A connection and the queue it is used on.
    private final class Lane: @unchecked Sendable {
        // Unchecked: `connection` is only touched on `queue`.
        let queue: DispatchQueue
        let connection: PostgresConnection
        init(index: Int, connection: PostgresConnection) {
            queue = DispatchQueue(label: "notibase-postgres-\(index)")
            self.connection = connection
        }
    }

    private struct State {
        var free: [Lane]
        var waiting: [CheckedContinuation<Lane, Never>] = []
    }

    private let state: Mutex<State>
    /// How many connections it holds.
    let size: Int
    /// When set (tests), every connection records its statements' plans.
    let plans = Mutex<QueryPlans?>(nil)

    /// Opens `size` connections to `url`.
    init(url: String, size: Int) throws {
        var lanes: [Lane] = []
        for index in 0..<size { lanes.append(Lane(index: index, connection: try PostgresConnection(url: url))) }
        self.size = size
        state = Mutex(State(free: lanes))
    }

    /// Runs `body` with a connection of its own, off the shared pool. A broken connection is
    /// re-established first; if that fails, the call throws `unavailable`.
    @discardableResult
    func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        let lane = await borrow()
        defer { giveBack(lane) }
        return try await withCheckedThrowingContinuation { continuation in
            let plans = self.plans.withLock { $0 }
            lane.queue.async {
                lane.connection.plans = plans
                continuation.resume(with: Result {
                    try lane.connection.reconnectIfNeeded()
                    return try body(lane.connection)
                })
            }
        }
    }

    /// The same in one transaction.
    @discardableResult
    func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await withConnection { connection in try connection.transaction { try body(connection) } }
    }

    private func borrow() async -> Lane {
        await withCheckedContinuation { continuation in
            let lane: Lane? = state.withLock { state in
                if let lane = state.free.popLast() { return lane }
                state.waiting.append(continuation)
                return nil
            }
            if let lane { continuation.resume(returning: lane) }
        }
    }

    private func giveBack(_ lane: Lane) {
        let next: CheckedContinuation<Lane, Never>? = state.withLock { state in
            if state.waiting.isEmpty {
                state.free.append(lane)
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume(returning: lane)
    }
}
