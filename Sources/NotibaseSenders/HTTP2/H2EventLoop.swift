import NotibaseCore
#if canImport(Glibc)
import Glibc
#endif

/// The thread that owns a set of HTTP/2 connections: it takes jobs from its inbox, puts them on
/// streams of connections to their origin (opening connections up to the cap), polls the sockets,
/// and enforces every deadline. Everything here runs on that one thread; the only way in is
/// `HTTP2Inbox`, which wakes the thread through a pipe.
final class H2EventLoop {
    private struct Waiting {
        var job: HTTP2Job
        var path: String
        var deadline: ContinuousClock.Instant
    }

    private struct OriginState {
        var connections: [H2Connection] = []
        var waiting: [Waiting] = []
        var head = 0
    }

    private let inbox: HTTP2Inbox
    private let configuration: HTTP2ClientConfiguration
    /// A pipe: the inbox writes a byte to wake the loop's poll.
    private let wakeFD: Int32
    private let wakeWriteFD: Int32
    private let tls: Result<TLSContext, TransportError>
    private var origins: [Origin: OriginState] = [:]
    private var inFlight = 0
    /// Deadlines, PINGs and idle connections are checked at most every 10 ms.
    private var nextTimerCheck = ContinuousClock.now

    private init(inbox: HTTP2Inbox, configuration: HTTP2ClientConfiguration) {
        self.inbox = inbox
        self.configuration = configuration
        (wakeFD, wakeWriteFD) = PollingThread.makeWakePipe()
        do { tls = .success(try TLSContext(configuration: configuration)) } catch { tls = .failure(error) }
        inbox.attach(wakeFD: wakeWriteFD)
    }

    deinit {
        Glibc.close(wakeFD)
        Glibc.close(wakeWriteFD)
    }

    /// Starts the loop on a thread of its own, which runs until the inbox is stopped.
    static func start(inbox: HTTP2Inbox, configuration: HTTP2ClientConfiguration) {
        let context = Unmanaged.passRetained(LoopContext(inbox: inbox, configuration: configuration)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { raw in
            let context = Unmanaged<LoopContext>.fromOpaque(raw!).takeRetainedValue()
            // A write to a socket the peer closed raises SIGPIPE in the writing thread, which would
            // end the process: block it here, so the write fails with EPIPE instead.
            var blocked = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &blocked, nil)
            H2EventLoop(inbox: context.inbox, configuration: context.configuration).run()
            return nil
        }, context)
        precondition(status == 0, "could not start the HTTP/2 event-loop thread (error \(status))")
        pthread_detach(thread)
    }

    private func run() {
        var pollFDs: [pollfd] = []
        var polled: [H2Connection] = []
        while true {
            let (jobs, stopping) = inbox.take()
            if stopping { break }
            let now = ContinuousClock.now
            for job in jobs { enqueue(job, now: now) }
            for origin in Array(origins.keys) { dispatch(origin, now: now) }
            pollFDs.removeAll(keepingCapacity: true)
            polled.removeAll(keepingCapacity: true)
            pollFDs.append(pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0))
            for state in origins.values {
                for connection in state.connections where connection.state != .closed {
                    pollFDs.append(pollfd(fd: connection.fd, events: Int16(POLLIN) | (connection.wantsWrite ? Int16(POLLOUT) : 0), revents: 0))
                    polled.append(connection)
                }
            }
            // Deadlines need a look every 10 ms while requests are out; idle connections only for
            // PINGs and connect deadlines.
            let busy = inFlight > 0 || origins.values.contains { $0.head < $0.waiting.count }
            poll(&pollFDs, nfds_t(pollFDs.count), busy ? 10 : polled.isEmpty ? 1000 : 100)
            if pollFDs[0].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 256)
                while read(wakeFD, &drain, drain.count) > 0 {}
            }
            for (index, connection) in polled.enumerated() where pollFDs[index + 1].revents != 0 {
                connection.handle(events: pollFDs[index + 1].revents)
            }
            let after = ContinuousClock.now
            let checkTimers = after >= nextTimerCheck
            if checkTimers { nextTimerCheck = after + .milliseconds(10) }
            for connection in polled {
                if checkTimers { connection.checkTimers(now: after) }
                connection.flush()
                if !connection.refused.isEmpty {
                    let refused = connection.refused
                    connection.refused = []
                    origins[connection.origin]?.waiting.append(contentsOf: refused.map { Waiting(job: $0.job, path: $0.path, deadline: $0.deadline) })
                }
            }
            recount()
        }
        let shutdown = TransportError(kind: .shutdown, message: "the HTTP/2 client was shut down")
        for state in origins.values {
            for connection in state.connections { connection.close(shutdown) }
            for waiting in state.waiting[state.head...] { waiting.job.complete(.failure(shutdown)) }
        }
        origins = [:]
        for job in inbox.take().jobs + inbox.markStopped() { job.complete(.failure(shutdown)) }
    }

    private func enqueue(_ job: HTTP2Job, now: ContinuousClock.Instant) {
        guard let (origin, path) = parse(job.request.url) else {
            job.complete(.failure(TransportError(kind: .other, message: "not an https:// URL")))
            return
        }
        origins[origin, default: OriginState()].waiting.append(Waiting(job: job, path: path, deadline: now + job.request.timeout))
    }

    /// The origin and path of a URL; the last origin is remembered, since a batch shares it.
    private var lastOrigin: (prefix: String, origin: Origin)?

    private func parse(_ url: String) -> (Origin, String)? {
        if let (prefix, origin) = lastOrigin, url.utf8.count > prefix.utf8.count, url.utf8.starts(with: prefix.utf8) {
            let path = url.utf8.dropFirst(prefix.utf8.count)
            if path.first == UInt8(ascii: "/") { return (origin, String(Substring(path))) }
        }
        guard let (origin, path) = Origin.parse(url) else { return nil }
        lastOrigin = (String(url.dropLast(path.count)), origin)
        return (origin, path)
    }

    /// Puts waiting jobs of `origin` on streams, opening connections up to the cap; fails jobs
    /// that waited past their deadline, and all of them when no connection can be made.
    private func dispatch(_ origin: Origin, now: ContinuousClock.Instant) {
        // Taken out of the dictionary while it changes, so its queue is not copied on write.
        guard var state = origins.removeValue(forKey: origin) else { return }
        defer { origins[origin] = state }
        let failures = state.connections.compactMap { $0.state == .closed ? $0.failure : nil }
        state.connections.removeAll { $0.state == .closed }
        if state.connections.isEmpty, let failure = failures.first(where: { $0.kind == .connectFailed || $0.kind == .tls }) {
            for waiting in state.waiting[state.head...] { waiting.job.complete(.failure(failure)) }
            state.waiting = []
            state.head = 0
        }
        while state.head < state.waiting.count {
            let waiting = state.waiting[state.head]
            if now >= waiting.deadline {
                waiting.job.complete(.failure(TransportError(kind: .timedOut, cause: .timeout, message: "waited longer than the request timeout for a connection")))
                state.head += 1
                continue
            }
            guard inFlight < configuration.maxRequestsInFlight else { break }
            if let connection = state.connections.first(where: { $0.canTakeStream(limit: configuration.maxStreamsPerConnection) }) {
                if connection.submit(waiting.job, path: waiting.path, deadline: waiting.deadline) {
                    state.head += 1
                    inFlight += 1
                } else {
                    // Out of stream IDs (after about a billion streams) or a broken session: this
                    // connection takes no more; the job waits for another.
                    connection.retire()
                }
                continue
            }
            let opening = state.connections.contains { $0.state == .connecting || $0.state == .handshaking }
            if !opening && state.connections.count < configuration.maxConnectionsPerHost {
                do {
                    state.connections.append(try H2Connection(origin: origin, tls: try tls.get(), configuration: configuration))
                } catch where state.connections.isEmpty {
                    // No connection at all to this origin: the jobs cannot go anywhere now.
                    for waiting in state.waiting[state.head...] { waiting.job.complete(.failure(error)) }
                    state.head = state.waiting.count
                } catch {
                    // The connections there are will take the jobs.
                }
            }
            break
        }
        if state.head == state.waiting.count {
            state.waiting.removeAll(keepingCapacity: true)
            state.head = 0
        } else if state.head > 4096 && state.head * 2 > state.waiting.count {
            state.waiting.removeFirst(state.head)
            state.head = 0
        }
        for connection in state.connections { connection.flush() }
    }

    private func recount() {
        inFlight = origins.values.reduce(0) { total, state in total + state.connections.reduce(0) { $0 + $1.streams.count } }
    }
}

/// What the loop thread needs to start.
private final class LoopContext: Sendable {
    let inbox: HTTP2Inbox
    let configuration: HTTP2ClientConfiguration

    init(inbox: HTTP2Inbox, configuration: HTTP2ClientConfiguration) {
        self.inbox = inbox
        self.configuration = configuration
    }
}
