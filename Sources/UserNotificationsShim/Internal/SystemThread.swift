import Foundation

/// A serial executor on a dedicated thread that runs jobs at given instants, in the order of their
/// instants and, for equal instants, in the order they were scheduled.
///
/// It is the simulated system's own thread: answers to the center's reads run here, never on the
/// caller's thread. The thread starts with the first job and ends at `shutdown()`.
final class SystemThread: @unchecked Sendable {
    private struct Job {
        let due: ContinuousClock.Instant
        let order: UInt64
        let work: @Sendable () -> Void
    }

    // Guards everything below; also what the thread waits on.
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var scheduled: UInt64 = 0
    private var started = false
    private var stopped = false
    private let name: String

    init(name: String) {
        self.name = name
    }

    /// Runs `work` on the thread at `due` (or as soon after as the thread is free).
    func schedule(at due: ContinuousClock.Instant, _ work: @escaping @Sendable () -> Void) {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else { return }
        scheduled += 1
        let job = Job(due: due, order: scheduled, work: work)
        let index = jobs.firstIndex { ($0.due, $0.order) > (job.due, job.order) } ?? jobs.endIndex
        jobs.insert(job, at: index)
        if !started {
            started = true
            let thread = Thread { [self] in run() }
            thread.name = name
            thread.start()
        }
        condition.signal()
    }

    /// Drops pending jobs and lets the thread end.
    func shutdown() {
        condition.lock()
        stopped = true
        jobs.removeAll()
        condition.signal()
        condition.unlock()
    }

    private func run() {
        condition.lock()
        while !stopped {
            guard let next = jobs.first else {
                condition.wait()
                continue
            }
            let wait = ContinuousClock.now.duration(to: next.due)
            if wait > .zero {
                _ = condition.wait(until: Date(timeIntervalSinceNow: wait.seconds))
                continue
            }
            jobs.removeFirst()
            condition.unlock()
            next.work()
            condition.lock()
        }
        condition.unlock()
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
