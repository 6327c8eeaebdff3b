import Foundation
import Synchronization
import NotibaseDomain

/// A thread of its own that runs the work given to it one piece at a time, in order, at a CPU
/// priority of its own. A lane of ``ConnectionLanes`` runs on one: a Dispatch queue's work moves
/// between Dispatch's shared threads, and a thread's nice value stays with the thread, so only a
/// thread of its own can run one kind of work below the others (``SQLiteReaders``' bulk reads).
package final class LaneThread: Sendable {
    /// The jobs given and not yet taken: those from `next` on (taken ones are dropped in bulk, so
    /// that a long queue, as the SQLite writer's under a flood, costs no copy per job).
    private let jobs = Mutex<(queue: [@Sendable () -> Void], next: Int)>(([], 0))
    /// One signal per job, and one more to stop.
    private let ready = DispatchSemaphore(value: 0)

    /// Starts the thread, named `name` (Linux keeps 15 bytes); with `niceness` above 0 it
    /// runs below the process's other threads (Linux's nice value is a thread's own).
    package init(name: String, niceness: Int32 = 0) {
        let thread = Thread { [self] in
            #if os(Linux)
            // Named for `top -H` and `perf` (Foundation's name is its own, not the system's, and
            // Swift sees no `pthread_setname_np`).
            try? Data(name.utf8.prefix(15)).write(to: URL(fileURLWithPath: "/proc/thread-self/comm"))
            // Linux only: elsewhere `PRIO_PROCESS` with 0 is the whole process, not this thread.
            if niceness > 0 { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness) }
            #endif
            while true {
                ready.wait()
                // A signal that finds no job is the stop: every job given before it has run.
                guard let job = jobs.withLock({ jobs -> (@Sendable () -> Void)? in
                    guard jobs.next < jobs.queue.count else { return nil }
                    let job = jobs.queue[jobs.next]
                    jobs.next += 1
                    if jobs.next == jobs.queue.count {
                        jobs = ([], 0)
                    } else if jobs.next >= 1_024, jobs.next * 2 >= jobs.queue.count {
                        jobs.queue.removeFirst(jobs.next)
                        jobs.next = 0
                    }
                    return job
                }) else { return }
                job()
            }
        }
        thread.start()
    }

    /// Runs `job` on the thread after the work given before it.
    package func run(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.queue.append(job) }
        ready.signal()
    }

    /// Ends the thread once the work given so far has run; nothing may be given after.
    package func stop() {
        ready.signal()
    }
}
