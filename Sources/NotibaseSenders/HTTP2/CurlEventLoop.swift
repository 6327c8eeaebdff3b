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
    private var spareHandles: [UnsafeMutableRawPointer] = []

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
            for job in jobs { begin(job) }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            collectFinished()
            curl_multi_poll(multi, nil, 0, 1000, nil)
        }
        let shutdown = TransportError(kind: .shutdown, message: "the HTTP/2 client was shut down")
        for transfer in Array(active.values) { finish(transfer, with: .failure(shutdown)) }
        for job in inbox.take().jobs + inbox.markStopped() { job.complete(.failure(shutdown)) }
    }

    private func begin(_ job: HTTP2Job) {
        let handle = spareHandles.popLast() ?? curl_easy_init()
        guard let handle else {
            job.complete(.failure(TransportError(kind: .other, message: "curl_easy_init failed: out of memory")))
            return
        }
        let transfer = CurlTransfer(job: job, handle: handle)
        do {
            try transfer.configure(with: configuration)
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
        curl_easy_reset(handle)
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
