import NotibaseDomain
import NotibaseStore
/// The thread SQLite's one writer (``SQLiteStore``, an actor) runs on: a thread of its own
/// (``LaneThread``), not one of Swift's shared threads, which are as many as the cores. Each of
/// the writer's calls runs SQLite synchronously, and on a shared thread it held one of two
/// threads here for all of it (90% of a large send), so every other task waited for the other;
/// and the writer, which every send waits for, waited its turn behind them. Its own thread is
/// scheduled by the system beside the others (docs/decisions/0043).
package final class WriterExecutor: SerialExecutor {
    private let thread: LaneThread

    package init(name: String) {
        thread = LaneThread(name: name)
    }

    deinit { thread.stop() }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        thread.run { job.runSynchronously(on: executor) }
    }

    package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
