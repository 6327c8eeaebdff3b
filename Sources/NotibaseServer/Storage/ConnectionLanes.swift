import Dispatch
import Synchronization

/// A fixed number of database connections, each used from a thread of its own (the C libraries
/// block), so waiting on the database never holds a thread of Swift's shared pool. A caller
/// borrows a lane for one unit of work (a statement or a transaction) and waits its turn when all
/// are busy. PostgreSQL's pool and SQLite's readers are built on it.
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

    private struct State {
        var free: [Lane]
        var waiting: [CheckedContinuation<Lane, Never>] = []
    }

    private let state: Mutex<State>
    /// How many connections it holds.
    let size: Int

    /// Opens `size` connections with `open` (the lane's number).
    init(label: String, size: Int, open: (Int) throws -> Connection) throws {
        var lanes: [Lane] = []
        for index in 0..<size { lanes.append(Lane(label: "\(label)-\(index)", connection: try open(index))) }
        self.size = size
        state = Mutex(State(free: lanes))
    }

    /// Runs `body` with a connection of its own, on that connection's thread.
    @discardableResult
    func withConnection<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        let lane = await borrow()
        defer { giveBack(lane) }
        return try await withCheckedThrowingContinuation { continuation in
            lane.queue.async {
                continuation.resume(with: Result { try body(lane.connection) })
            }
        }
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
