import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/2-over-TLS client (nghttp2 and OpenSSL on non-blocking sockets): `eventLoops` threads,
/// each owning its connections, multiplex requests over at most `maxConnectionsPerHost` connections
/// per host in all, reused for as long as they live and PINGed when idle.
///
/// Requests are handed to a loop through a locked queue and a wake-up pipe; answers come
/// back through continuations. Every request finishes: with an answer, or with a `TransportError`
/// within its timeout, or with `.shutdown` when the client is shut down.
final class HTTP2Client: Sendable {
    private let inboxes: [HTTP2Inbox]
    private let nextLoop = Atomic<Int>(0)

    /// Starts a client and its event-loop threads.
    init(configuration: HTTP2ClientConfiguration = HTTP2ClientConfiguration()) {
        let loops = max(1, min(configuration.eventLoops, configuration.maxConnectionsPerHost))
        var perLoop = configuration
        perLoop.maxConnectionsPerHost = (configuration.maxConnectionsPerHost + loops - 1) / loops
        perLoop.maxRequestsInFlight = max(1, configuration.maxRequestsInFlight / loops)
        inboxes = (0..<loops).map { _ in
            let inbox = HTTP2Inbox()
            H2EventLoop.start(inbox: inbox, configuration: perLoop)
            return inbox
        }
    }

    deinit {
        for inbox in inboxes { inbox.stop() }
    }

    /// Sends one request and returns its answer or why there is none.
    func send(_ request: HTTP2Request) async -> Result<HTTP2Response, TransportError> {
        await send([request])[0]
    }

    /// Sends the requests concurrently and returns their results in the same order.
    func send(_ requests: [HTTP2Request]) async -> [Result<HTTP2Response, TransportError>] {
        guard !requests.isEmpty else { return [] }
        return await withCheckedContinuation { continuation in
            let collector = ResultCollector(count: requests.count, continuation: continuation)
            let jobs = requests.enumerated().map { index, request in
                HTTP2Job(request: request) { collector.set(index, $0) }
            }
            // Contiguous shares for the loops, starting with the next one in turn.
            let first = nextLoop.add(1, ordering: .relaxed).oldValue
            let share = (jobs.count + inboxes.count - 1) / inboxes.count
            for (offset, start) in stride(from: 0, to: jobs.count, by: share).enumerated() {
                inboxes[(first + offset) % inboxes.count].submit(Array(jobs[start..<min(start + share, jobs.count)]))
            }
        }
    }

    /// Fails what is queued or in flight with `.shutdown`, closes the connections and stops the
    /// loop thread. Requests sent afterwards fail with `.shutdown` at once.
    func shutdown() async {
        for inbox in inboxes {
            await withCheckedContinuation { continuation in
                inbox.stop(then: continuation)
            }
        }
    }
}

/// One request and what to do with its result (called once, on the loop thread).
struct HTTP2Job: Sendable {
    var request: HTTP2Request
    var complete: @Sendable (Result<HTTP2Response, TransportError>) -> Void
}

/// Gathers a batch's results and resumes the waiting task when the last one arrives.
private final class ResultCollector: Sendable {
    private struct State {
        var results: [Result<HTTP2Response, TransportError>?]
        var remaining: Int
    }

    private let state: Mutex<State>
    private let continuation: CheckedContinuation<[Result<HTTP2Response, TransportError>], Never>

    init(count: Int, continuation: CheckedContinuation<[Result<HTTP2Response, TransportError>], Never>) {
        state = Mutex(State(results: Array(repeating: nil, count: count), remaining: count))
        self.continuation = continuation
    }

    func set(_ index: Int, _ result: Result<HTTP2Response, TransportError>) {
        let finished: [Result<HTTP2Response, TransportError>]? = state.withLock { state in
            guard state.results[index] == nil else { return nil }
            state.results[index] = result
            state.remaining -= 1
            return state.remaining == 0 ? state.results.map { $0! } : nil
        }
        if let finished { continuation.resume(returning: finished) }
    }
}

/// The queue between callers and the loop thread, and the loop's wake-up.
final class HTTP2Inbox: Sendable {
    private struct State {
        var jobs: [HTTP2Job] = []
        var stopping = false
        var stopped = false
        /// The loop's wake-up while it runs.
        var wake: WakeHandle?
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// The write end of the loop's wake-up pipe: a byte written to it ends the loop's poll.
    struct WakeHandle {
        let fd: Int32
        func wake() {
            var byte: UInt8 = 1
            _ = write(fd, &byte, 1)
        }
    }

    private let state = Mutex(State())

    /// Registers the loop's wake-up pipe so submissions can wake it.
    func attach(wakeFD: Int32) {
        state.withLock { $0.wake = WakeHandle(fd: wakeFD) }
    }

    /// Queues jobs and wakes the loop; after shutdown they fail at once.
    func submit(_ jobs: [HTTP2Job]) {
        let accepted = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.jobs.append(contentsOf: jobs)
            state.wake?.wake()
            return true
        }
        if !accepted {
            for job in jobs { job.complete(.failure(TransportError(kind: .shutdown, message: "the HTTP/2 client was shut down"))) }
        }
    }

    /// The queued jobs (now the loop's) and whether the loop should stop.
    func take() -> (jobs: [HTTP2Job], stopping: Bool) {
        state.withLock { state in
            let jobs = state.jobs
            state.jobs.removeAll(keepingCapacity: true)
            return (jobs, state.stopping)
        }
    }

    /// Asks the loop to stop; `continuation`, if any, resumes once it has.
    func stop(then continuation: CheckedContinuation<Void, Never>? = nil) {
        let alreadyStopped = state.withLock { state -> Bool in
            state.stopping = true
            if state.stopped { return true }
            if let continuation { state.stopWaiters.append(continuation) }
            state.wake?.wake()
            return false
        }
        if alreadyStopped { continuation?.resume() }
    }

    /// Called by the loop as it exits, before it closes its wake-up pipe: returns the jobs queued
    /// since the last `take()` (to fail) and resumes whoever waits for the stop.
    func markStopped() -> [HTTP2Job] {
        let (jobs, waiters) = state.withLock { state in
            state.stopped = true
            state.wake = nil
            let jobs = state.jobs
            state.jobs = []
            let waiters = state.stopWaiters
            state.stopWaiters = []
            return (jobs, waiters)
        }
        defer { for waiter in waiters { waiter.resume() } }
        return jobs
    }
}
