import Foundation
import NotibaseSenders
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The one thread that drives every webhook exchange of the process: it takes new exchanges from
/// its inbox, runs each on a kept connection to the same place or a new one, polls their sockets,
/// and ends each at its deadline. A POST waiting for an answer holds a socket and a continuation,
/// never a thread, so a thousand endpoints that accept and never answer cost a thousand sockets
/// until their deadlines, and nothing else.
final class WebhookPoller: Sendable {
    static let shared = WebhookPoller()

    private let inbox = Mutex<[WebhookExchange.Job]>([])
    /// A pipe: `submit` writes a byte to wake the thread's poll.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// The thread's directory in /proc (`/proc/<pid>/task/<tid>`), once it runs.
    let task = Mutex<String?>(nil)

    private init() {
        (wakeRead, wakeWrite) = PollingThread.makeWakePipe()
        let thread = Thread { [self] in
            #if os(Linux)
            // Named for `top -H`, `perf` and the benchmarks' CPU by thread: Foundation's name is
            // not the system's, and it bore the name of the Swift thread that made it.
            try? Data("nb-webhook-io".utf8).write(to: URL(fileURLWithPath: "/proc/thread-self/comm"))
            let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
            task.withLock { $0 = path.map { "/proc/" + $0 } }
            #endif
            run()
        }
        thread.name = "notibase-webhooks"
        thread.start()
    }

    /// Starts `job`; its `finish` is called once, on the poller's thread.
    func submit(_ job: WebhookExchange.Job) {
        inbox.withLock { $0.append(job) }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private func run() {
        // A write to a socket the peer closed raises SIGPIPE in the writing thread (OpenSSL writes
        // with write(2)): blocked here, so the write fails with EPIPE instead of ending the process.
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        var exchanges: [WebhookExchange] = []
        var pool = WebhookConnectionPool()
        var pollFDs: [pollfd] = []
        while true {
            // The connections of the answers just read are kept before the next jobs are taken: a
            // dispatcher posts its next batch as soon as it has the last one's answer.
            var again: [WebhookExchange.Job] = []
            for exchange in exchanges where exchange.isDone {
                if let connection = exchange.kept { pool.put(connection) }
                if exchange.wantsNewConnection { again.append(exchange.job) }
            }
            exchanges.removeAll { $0.isDone }
            var now = ContinuousClock.now
            for job in again { exchanges.append(WebhookExchange(job)) }
            for job in inbox.withLock({ jobs in defer { jobs.removeAll() }; return jobs }) {
                exchanges.append(WebhookExchange(job, on: pool.take(job.connectionKey, now: now)))
            }
            now = ContinuousClock.now
            for exchange in exchanges where now >= exchange.deadline { exchange.expire() }
            pool.closeExpired(now: now)
            var nearest = exchanges.filter { !$0.isDone }.map(\.deadline).min()
            if let expiry = pool.nextExpiry { nearest = min(nearest ?? expiry, expiry) }
            pollFDs.removeAll(keepingCapacity: true)
            pollFDs.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
            for exchange in exchanges {
                // One that ended on creation (a connect refused) is kept out of poll, and taken away
                // at the top of the loop.
                pollFDs.append(pollfd(fd: exchange.isDone ? -1 : exchange.fd, events: exchange.events, revents: 0))
            }
            // Something ended on creation or expiry: do not wait before collecting it.
            let waiting = exchanges.contains(where: \.isDone) ? 0 : Self.milliseconds(until: nearest, now: now)
            poll(&pollFDs, nfds_t(pollFDs.count), waiting)
            if pollFDs[0].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 64)
                while read(wakeRead, &drain, drain.count) > 0 {}
            }
            for (index, exchange) in exchanges.enumerated() where pollFDs[index + 1].revents != 0 && !exchange.isDone {
                exchange.advance()
            }
        }
    }

    /// poll's timeout: until the nearest deadline (rounded up, so it has passed when poll returns),
    /// or indefinitely when nothing is in flight.
    private static func milliseconds(until deadline: ContinuousClock.Instant?, now: ContinuousClock.Instant) -> Int32 {
        guard let deadline else { return -1 }
        let (seconds, attoseconds) = (deadline - now).components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        return Int32(min(seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000, 60_000))
    }
}
