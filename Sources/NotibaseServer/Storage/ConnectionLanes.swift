import Dispatch
import Synchronization

/// A fixed number of database connections, each used from a thread of its own (the C libraries
/// block), so waiting on the database never holds a thread of Swift's shared pool. A caller
/// borrows a lane for one unit of work (a statement or a transaction) and waits its turn when all
/// are busy, or when its app holds every lane but one (``LaneTurns``). PostgreSQL's pool and
/// SQLite's readers are built on it.
final class ConnectionLanes<Connection>: Sendable {
    /// A connection and the queue it is used on.
    private final class Lane: @unchecked Sendable {
        // Unchecked: `connection` is only touched on `queue`.
        let queue: DispatchQueue
        let connection: Connection
        init(label: String, connection: Connection) {
            queue = DispatchQueue(label: label)
            self.connection = connection
        }
    }

    private let state: Mutex<LaneTurns<Lane, CheckedContinuation<Lane, Never>>>
    /// How many connections it holds.
    let size: Int

    /// Opens `size` connections with `open` (the lane's number).
    init(label: String, size: Int, open: (Int) throws -> Connection) throws {
        var lanes: [Lane] = []
        for index in 0..<size { lanes.append(Lane(label: "\(label)-\(index)", connection: try open(index))) }
        self.size = size
        state = Mutex(LaneTurns(lanes: lanes))
    }

    /// Runs `body` with a connection of its own, on that connection's thread. A caller working
    /// for an app names it (`app`): it then waits while that app holds every lane but one.
    @discardableResult
    func withConnection<T: Sendable>(app: String? = nil, _ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        let lane = await borrow(app)
        defer { giveBack(lane, app) }
        return try await withCheckedThrowingContinuation { continuation in
            lane.queue.async {
                continuation.resume(with: Result { try body(lane.connection) })
            }
        }
    }

    private func borrow(_ app: String?) async -> Lane {
        await withCheckedContinuation { continuation in
            let lane = state.withLock { $0.borrow(key: app, waiter: continuation) }
            if let lane { continuation.resume(returning: lane) }
        }
    }

    private func giveBack(_ lane: Lane, _ app: String?) {
        guard let next = state.withLock({ $0.giveBack(lane, key: app) }) else { return }
        next.waiter.resume(returning: next.lane)
    }
}
