import CCurl
import Foundation
package import Synchronization

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
    /// libcurl's multi handle: only the client's thread uses it, but for `curl_multi_wakeup`,
    /// which libcurl allows from any thread.
    private nonisolated(unsafe) let multi: OpaquePointer = curl_multi_init()!
    private let inbox = Mutex<[(Request, CheckedContinuation<Ending, Never>)]>([])

    /// Starts the thread (named `threadName` for `top -H` and `perf`), which runs for the life of
    /// the process. At most `connectionsPerHost` connections to one address and port, in use or
    /// idle, and `idleConnections` idle in all; HTTP/2 requests to one place share a connection
    /// (libcurl's default, `CURLPIPE_MULTIPLEX`).
    package init(threadName: String, connectionsPerHost: Int, idleConnections: Int = 256) {
        notibase_curl_multi_set_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, connectionsPerHost)
        notibase_curl_multi_set_long(multi, CURLMOPT_MAXCONNECTS, idleConnections)
        Thread { [self] in
            // Where there is no /proc (not Linux), the thread goes unnamed and `task` stays nil.
            try? Data(threadName.utf8.prefix(15)).write(to: URL(fileURLWithPath: "/proc/thread-self/comm"))
            let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
            task.withLock { $0 = path.map { "/proc/" + $0 } }
            run()
        }.start()
    }

    /// Sends `request`. Never throws: every failure is an outcome.
    package func send(_ request: Request) async -> Ending {
        // libcurl writes each header as given: a line break in one would start another.
        let unsafe = { (text: String) in text.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 } }
        guard request.headers.allSatisfy({ !$0.name.isEmpty && !$0.name.contains(":") && !unsafe($0.name) && !unsafe($0.value) }) else {
            return Ending(outcome: .failed("a header's name or value holds a line break or is empty"))
        }
        return await withCheckedContinuation { continuation in
            inbox.withLock { $0.append((request, continuation)) }
            curl_multi_wakeup(multi)
        }
    }

    /// libcurl initialises itself at its first easy handle (thread-safe since 7.84), and sends with
    /// `MSG_NOSIGNAL`, TLS records too (through a BIO of its own): a peer that closed raises no
    /// SIGPIPE here.
    private func run() {
        var transfers: [OpaquePointer: HTTPTransfer] = [:]
        while true {
            for (request, continuation) in inbox.withLock({ items in defer { items.removeAll() }; return items }) {
                let transfer = HTTPTransfer(request, continuation: continuation)
                guard curl_multi_add_handle(multi, transfer.easy) == CURLM_OK else {
                    transfer.complete(CURLE_OUT_OF_MEMORY)
                    continue
                }
                transfers[transfer.easy] = transfer
            }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                      let transfer = transfers.removeValue(forKey: easy) else { continue }
                transfer.complete(message.pointee.data.result)  // before the message goes with the handle
                curl_multi_remove_handle(multi, easy)
            }
            // libcurl shortens the wait to its own next timeout (a deadline, a connect).
            curl_multi_poll(multi, nil, 0, 60_000, nil)
        }
    }
}
