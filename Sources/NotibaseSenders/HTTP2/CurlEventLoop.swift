import CCurl
import NotibaseCore
#if canImport(Glibc)
import Glibc
#endif

/// The thread that owns a libcurl multi handle and every easy handle: it starts queued requests,
/// drives transfers with `curl_multi_perform`, sleeps in `curl_multi_poll`, and completes jobs.
///
/// Everything here runs on that one thread; the only way in is `HTTP2Inbox`.
final class CurlEventLoop {
    private let inbox: HTTP2Inbox
    private let configuration: HTTP2ClientConfiguration
    private let multi: UnsafeMutableRawPointer
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    /// Easy handles of finished transfers, with the client-wide options still set.
    private var spareHandles: [UnsafeMutableRawPointer] = []
    /// Jobs beyond `maxRequestsInFlight`, oldest first, with when they were queued.
    private var waiting: [(job: HTTP2Job, queued: ContinuousClock.Instant)] = []
    private var waitingHead = 0

    private init(inbox: HTTP2Inbox, configuration: HTTP2ClientConfiguration) {
        self.inbox = inbox
        self.configuration = configuration
        guard let multi = curl_multi_init() else { fatalError("curl_multi_init failed: out of memory") }
        self.multi = multi
        notibase_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX)
        notibase_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maxConnectionsPerHost)
        notibase_curl_multi_setopt_long(multi, CURLMOPT_MAX_CONCURRENT_STREAMS, configuration.maxStreamsPerConnection)
        inbox.attach(multi: multi)
    }

    deinit {
        for handle in spareHandles { curl_easy_cleanup(handle) }
        curl_multi_cleanup(multi)
    }

    /// Starts the loop on a thread of its own, which runs until the inbox is stopped.
    static func start(inbox: HTTP2Inbox, configuration: HTTP2ClientConfiguration) {
        let context = Unmanaged.passRetained(LoopContext(inbox: inbox, configuration: configuration)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { raw in
            let context = Unmanaged<LoopContext>.fromOpaque(raw!).takeRetainedValue()
            CurlEventLoop(inbox: context.inbox, configuration: context.configuration).run()
            return nil
        }, context)
        precondition(status == 0, "could not start the HTTP/2 event-loop thread (error \(status))")
        pthread_detach(thread)
    }

    private func run() {
        while true {
            let (jobs, stopping) = inbox.take()
            if stopping { break }
            if !jobs.isEmpty {
                let now = ContinuousClock.now
                waiting.append(contentsOf: jobs.lazy.map { ($0, now) })
            }
            admitWaiting()
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            collectFinished()
            if waitingHead < waiting.count && active.count < configuration.maxRequestsInFlight { continue }
            curl_multi_poll(multi, nil, 0, 1000, nil)
        }
        let shutdown = TransportError(kind: .shutdown, message: "the HTTP/2 client was shut down")
        for transfer in Array(active.values) { finish(transfer, with: .failure(shutdown)) }
        let queued = waiting[waitingHead...].map(\.job)
        for job in queued + inbox.take().jobs + inbox.markStopped() { job.complete(.failure(shutdown)) }
    }

    /// Hands waiting jobs to libcurl while fewer than `maxRequestsInFlight` are in flight: libcurl
    /// walks every transfer it holds on each call, so a bounded window keeps each call cheap. A
    /// job that waited past its timeout fails here as `timedOut`.
    private func admitWaiting() {
        let now = ContinuousClock.now
        while waitingHead < waiting.count && active.count < configuration.maxRequestsInFlight {
            let (job, queued) = waiting[waitingHead]
            waitingHead += 1
            let remaining = job.request.timeout - (now - queued)
            if remaining <= .zero {
                job.complete(.failure(TransportError(kind: .timedOut, message: "waited longer than the request timeout for a free stream")))
            } else {
                begin(job, timeout: remaining)
            }
        }
        if waitingHead == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            waitingHead = 0
        } else if waitingHead > 4096 && waitingHead * 2 > waiting.count {
            waiting.removeFirst(waitingHead)
            waitingHead = 0
        }
    }

    private func begin(_ job: HTTP2Job, timeout: Duration) {
        var handle = spareHandles.popLast()
        if handle == nil, let fresh = curl_easy_init() {
            if let error = CurlTransfer.configureClientOptions(of: fresh, with: configuration) {
                curl_easy_cleanup(fresh)
                job.complete(.failure(error))
                return
            }
            handle = fresh
        }
        guard let handle else {
            job.complete(.failure(TransportError(kind: .other, message: "curl_easy_init failed: out of memory")))
            return
        }
        let transfer = CurlTransfer(job: job, handle: handle)
        do {
            try transfer.configure(timeout: timeout)
        } catch {
            transfer.release()
            recycle(handle)
            job.complete(.failure(error))
            return
        }
        active[handle] = transfer
        let added = curl_multi_add_handle(multi, handle)
        if added != CURLM_OK {
            finish(transfer, with: .failure(TransportError(kind: .other, code: Int32(added.rawValue), message: String(cString: curl_multi_strerror(added)))))
        }
    }

    private func collectFinished() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle, let transfer = active[handle] else { continue }
            let code = message.pointee.data.result
            finish(transfer, with: code == CURLE_OK ? .success(transfer.response()) : .failure(transfer.error(for: code)))
        }
    }

    private func finish(_ transfer: CurlTransfer, with result: Result<HTTP2Response, TransportError>) {
        active[transfer.handle] = nil
        curl_multi_remove_handle(multi, transfer.handle)
        transfer.release()
        recycle(transfer.handle)
        transfer.job.complete(result)
    }

    private func recycle(_ handle: UnsafeMutableRawPointer) {
        if spareHandles.count < 4096 { spareHandles.append(handle) } else { curl_easy_cleanup(handle) }
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
