import Foundation
import NotibaseDomain
import NotibaseStore
import NotibaseOutbound

/// Threads of their own for blocking name lookups (`getaddrinfo`), at most ``limit`` of them,
/// started as work arrives and kept. A lookup that never answers (a resolver that reads queries
/// and drops them) holds one of these threads until the system's resolver gives up, never one of
/// Dispatch's shared threads, on which Swift's tasks run on Linux: there a few dozen such lookups
/// stalled every other tenant's requests for half a minute (issue 43). Work given while every
/// thread is busy waits its turn, in order.
package final class LookupThreads: @unchecked Sendable {
    // @unchecked: every stored property but the constants is read and written under `condition`.
    /// The most threads.
    private let limit: Int
    private let name: String
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var threads = 0
    private var waiting = 0

    package init(limit: Int, name: String = "nb-lookup") {
        self.limit = max(1, limit)
        self.name = name
    }

    /// Runs `job` on one of the threads, once one is free.
    package func run(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        let start = jobs.count > waiting && threads < limit
        if start { threads += 1 } else { condition.signal() }
        condition.unlock()
        if start { Thread { [self] in work() }.start() }
    }

    private func work() {
        #if os(Linux)
        // Named for `top -H` and `perf` (Foundation's name is its own, not the system's).
        try? Data(name.utf8.prefix(15)).write(to: URL(fileURLWithPath: "/proc/thread-self/comm"))
        #endif
        while true {
            condition.lock()
            while jobs.isEmpty {
                waiting += 1
                condition.wait()
                waiting -= 1
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}
