import Dispatch
import Synchronization
import NotibaseDomain

/// A fixed number of database connections, each used from a thread of its own (the C libraries
/// block; ``LaneThread``), so waiting on the database never holds a thread of Swift's shared pool,
/// and a lane's thread may run below the others' priority (`niceness`). A caller
/// borrows a lane for one unit of work (a statement or a transaction) and waits its turn when all
/// are busy, or when its app holds every lane but one (``LaneTurns``). PostgreSQL's pool and
/// SQLite's readers are built on it.
package final class ConnectionLanes<Connection>: Sendable {
    /// A connection and the thread it is used on.
    private final class Lane: @unchecked Sendable {
        // Unchecked: `connection` is only touched on `thread`.
        package let thread: LaneThread
        package let connection: Connection
        package init(thread: LaneThread, connection: Connection) {
            self.thread = thread
            self.connection = connection
        }
    }

    private let state: Mutex<LaneTurns<Lane, CheckedContinuation<Lane, Never>>>
    /// Every lane, to stop their threads.
    private let lanes: [Lane]
    /// How many connections it holds.
    package let size: Int

    /// Opens `size` connections with `open` (the lane's number), each used on a thread named
    /// `label` and its number, at `niceness` (0: the process's priority).
    package init(label: String, size: Int, niceness: Int32 = 0, open: (Int) throws -> Connection) throws {
        var lanes: [Lane] = []
        for index in 0..<size {
            let connection = try open(index)
            lanes.append(Lane(thread: LaneThread(name: "\(label)-\(index)", niceness: niceness), connection: connection))
        }
        self.lanes = lanes
        self.size = size
        state = Mutex(LaneTurns(lanes: lanes))
    }

    deinit {
        // Nothing is borrowed any more (a borrower holds the lanes): each thread ends.
        for lane in lanes { lane.thread.stop() }
    }

    /// Runs `body` with a connection of its own, on that connection's thread. A caller working
    /// for an app names it (`app`): it then waits while that app holds every lane but one.
    @discardableResult
    package func withConnection<T: Sendable>(app: String? = nil, _ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        let lane = await borrow(app)
        defer { giveBack(lane, app) }
        return try await withCheckedThrowingContinuation { continuation in
            lane.thread.run {
                continuation.resume(with: Result { try body(lane.connection) })
            }
        }
    }

    /// How many callers wait for a lane (for tests).
    package var waitingCount: Int { state.withLock { $0.waitingCount } }

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
