package import Foundation
import Synchronization
package import NotibaseDomain

/// Copies the write-ahead log into the database file from its own connection on its own thread
/// (a passive checkpoint every `interval`), so the store's writer never stalls on that I/O and
/// its fsync. The writer's own automatic checkpoint stays on as a backstop for a burst the
/// checkpointer has not caught up with.
package final class Checkpointer: Sendable {
    private final class Flags: Sendable {
        package let stopped = Mutex(false)
        package let finished = Mutex(false)
        /// The thread's directory in /proc (`/proc/<pid>/task/<tid>`), once it runs.
        package let task = Mutex<String?>(nil)
    }

    private let flags = Flags()

    /// Starts checkpointing the database at `path`.
    ///
    /// Every 0.1 s: at 30,000 registrations a second a checkpoint every half second had a
    /// quarter of a second of the log to copy, the writer fell back on its own automatic
    /// checkpoint, and one write in a hundred waited 30–45 ms. Small checkpoints keep the log
    /// short (p99 7–9 ms).
    package init(path: String, interval: TimeInterval = 0.1, logger: Logger) {
        let thread = Thread { [flags] in
            defer { flags.finished.withLock { $0 = true } }
            #if os(Linux)
            // Named for `top -H`, `perf` and the benchmarks' CPU by thread: else it bears the name
            // of the thread that made it, one of Swift's shared threads, and its time reads as theirs.
            try? Data("nb-checkpoint".utf8).write(to: URL(fileURLWithPath: "/proc/thread-self/comm"))
            let task = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
            flags.task.withLock { $0 = task.map { "/proc/" + $0 } }
            #endif
            // The connection is opened, used and closed on this thread only.
            let connection: SQLiteConnection
            do {
                connection = try SQLiteConnection(path: path)
            } catch {
                logger.warning("no background checkpoints; the writer checkpoints instead", ["error": .string("\(error)")])
                return
            }
            while !flags.stopped.withLock({ $0 }) {
                Thread.sleep(forTimeInterval: interval)
                do {
                    try connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
                } catch {
                    logger.warning("background checkpoint failed; the writer checkpoints instead", ["error": .string("\(error)")])
                }
            }
        }
        thread.start()
    }

    /// The thread's directory in /proc once it runs (Linux).
    package var task: String? { flags.task.withLock { $0 } }

    /// Stops the thread (waiting for its current checkpoint to end).
    package func stop() async {
        flags.stopped.withLock { $0 = true }
        while !flags.finished.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(10)) }
    }
}
