import CCurl
import Foundation
package import Synchronization
#if canImport(Glibc)
import Glibc
import NotibaseDomain
#endif

/// HTTP/1.1 and HTTP/2 requests on libcurl's multi interface, all driven by one thread of its own
/// (`curl_multi_poll`, woken when a request arrives); a caller awaits a continuation, never a
/// thread. The caller says which checked address a request goes to (libcurl never looks a name
/// up), and that address is checked again once connected. Redirects are answers, never followed;
/// proxies from the environment are not used; connections are kept by libcurl between requests to
/// the same address, host, port and trust. docs/decisions/0036.
package final class HTTPClient: Sendable {
    /// The webhooks' (one for the process). The dispatcher has at most 32 endpoints in flight, so
    /// its requests never wait for the per-host bound, which caps what is kept open to one receiver.
    package static let webhooks = HTTPClient(threadName: "nb-webhook-io", connectionsPerHost: 64)

    /// The most bytes of an answer's head (its status line and headers, 1xx heads included).
    package static let maxHeadBytes = 16 * 1024
    /// How long a connection is kept idle: below common servers' idle timeouts and NAT gateways'.
    package static let idleLimit = 15

    /// The thread's directory in /proc (`/proc/<pid>/task/<tid>`), once it runs.
    package let task = Mutex<String?>(nil)
    private let multi: MultiHandle
    private let inbox = Mutex<[Pending]>([])

    private struct Pending: Sendable {
        package var request: Request
        package var continuation: CheckedContinuation<Ending, Never>
    }

    /// Starts the thread (named `threadName` for `top -H` and `perf`), which runs for the life of
    /// the process. At most `connectionsPerHost` connections to one address and port, in use or
    /// idle, and `idleConnections` idle in all.
    package init(threadName: String, connectionsPerHost: Int, idleConnections: Int = 256) {
        _ = Self.global
        multi = MultiHandle()
        notibase_curl_multi_set_long(multi.pointer, CURLMOPT_MAX_HOST_CONNECTIONS, connectionsPerHost)
        notibase_curl_multi_set_long(multi.pointer, CURLMOPT_MAXCONNECTS, idleConnections)
        notibase_curl_multi_set_long(multi.pointer, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        let thread = Thread { [self] in
            #if os(Linux)
            try? Data(threadName.utf8.prefix(15)).write(to: URL(fileURLWithPath: "/proc/thread-self/comm"))
            let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
            task.withLock { $0 = path.map { "/proc/" + $0 } }
            #endif
            run()
        }
        thread.start()
    }

    /// Sends `request`. Never throws: every failure is an outcome.
    package func send(_ request: Request) async -> Ending {
        for header in request.headers {
            let unsafe = { (text: String) in text.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 } }
            guard !header.name.isEmpty, !header.name.contains(":"), !unsafe(header.name), !unsafe(header.value) else {
                return Ending(outcome: .failed("a header's name or value holds a line break or is empty"))
            }
        }
        return await withCheckedContinuation { continuation in
            inbox.withLock { $0.append(Pending(request: request, continuation: continuation)) }
            curl_multi_wakeup(multi.pointer)
        }
    }

    private func run() {
        // A write to a socket the peer closed would raise SIGPIPE in this thread: blocked, so the
        // write fails with EPIPE instead (libcurl is told not to touch signals: CURLOPT_NOSIGNAL).
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        var transfers: [OpaquePointer: HTTPTransfer] = [:]
        while true {
            for pending in inbox.withLock({ items in defer { items.removeAll() }; return items }) {
                let transfer = HTTPTransfer(pending.request, continuation: pending.continuation)
                if curl_multi_add_handle(multi.pointer, transfer.easy) == CURLM_OK {
                    transfers[transfer.easy] = transfer
                } else {
                    transfer.complete(CURLE_OUT_OF_MEMORY)
                }
            }
            var running: Int32 = 0
            curl_multi_perform(multi.pointer, &running)
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi.pointer, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                      let transfer = transfers.removeValue(forKey: easy) else { continue }
                let result = message.pointee.data.result
                curl_multi_remove_handle(multi.pointer, easy)
                transfer.complete(result)
            }
            // libcurl shortens the wait to its own next timeout (a deadline, a connect).
            curl_multi_poll(multi.pointer, nil, 0, 60_000, nil)
        }
    }

    /// `curl_global_init`, once for the process.
    private static let global: Void = { _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()
}

/// libcurl's multi handle. `@unchecked Sendable`: only the client's thread uses it, except for
/// `curl_multi_wakeup`, which libcurl allows from any thread.
private final class MultiHandle: @unchecked Sendable {
    package let pointer: OpaquePointer = curl_multi_init()!
}
