import CMicroHTTPD
import Foundation
package import Synchronization
package import NotibaseDomain

/// An HTTP/1.1 server (keep-alive, optional TLS) on libmicrohttpd.
///
/// libmicrohttpd reads requests on its own polling thread. When a request's body is complete the
/// responder either answers at once or answers later: then the connection is suspended until the
/// reply comes (from a Swift task, or a storage callback), resumed, and the response queued.
/// Nothing async runs on the polling thread.
package final class HTTPServer: Sendable {
    /// Where and how to listen.
    package struct Options: Sendable {
        /// An IPv4 or IPv6 address to bind (`127.0.0.1`, `0.0.0.0`, `::1`).
        package var host: String
        /// The TCP port; 0 picks a free one (see ``HTTPServer/port``).
        package var port: Int
        /// The largest request body accepted; larger ones are answered 413.
        package var maxBodyBytes: Int
        /// How many connections, from whom, and how long each request may take to arrive.
        package var connections = ConnectionLimits()
        /// The bytes of request bodies held at once, across all connections (``BodyBudget``).
        package var bodiesInFlightBytes = 128 << 20
        /// PEM text of the TLS certificate chain and key; both or neither.
        package var tlsCertificatePEM: String?
        package var tlsKeyPEM: String?
        /// Where libmicrohttpd's own messages go (as warnings, with `"source": "libmicrohttpd"`).
        package var logger = Logger()

        package init(host: String, port: Int, maxBodyBytes: Int, tlsCertificatePEM: String? = nil, tlsKeyPEM: String? = nil) {
            self.host = host
            self.port = port
            self.maxBodyBytes = maxBodyBytes
            self.tlsCertificatePEM = tlsCertificatePEM
            self.tlsKeyPEM = tlsKeyPEM
        }
    }

    /// The daemon pointer, behind a lock: it is used by `shutdown` and never by the callbacks.
    private let daemon: Mutex<DaemonHandle?>
    private let context: HTTPServerContext
    /// The port it listens on.
    package let port: Int

    /// Binds and starts serving.
    package init(options: Options, responder: any HTTPResponder) throws {
        raiseDescriptorLimit(toAtLeast: options.connections.total + 1_024)
        let budget = BodyBudget(limit: max(options.bodiesInFlightBytes, options.maxBodyBytes))
        let guardian = ConnectionGuard(limits: options.connections, afterSweep: { budget.trimIfIdle() })
        let context = HTTPServerContext(
            responder: responder, maxBodyBytes: options.maxBodyBytes, logger: options.logger, connections: guardian, budget: budget)
        self.context = context
        var flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
        let isTLS = options.tlsCertificatePEM != nil && options.tlsKeyPEM != nil
        if isTLS { flags |= MHD_USE_TLS.rawValue }
        let address = try SocketAddress(host: options.host, port: options.port)
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let contextPointer = Unmanaged.passRetained(context).toOpaque()
        let logger = UnsafeMutablePointer<notibase_mhd_logger>.allocate(capacity: 1)
        logger.initialize(to: notibase_mhd_logger(sink: libmicrohttpdLogSink, context: contextPointer))
        let started: OpaquePointer? = address.withSockAddr { sockaddr in
            notibase_mhd_start(
                flags, UInt16(options.port), sockaddr,
                accessHandlerCallback, contextPointer,
                requestCompletedCallback, contextPointer,
                uriLogCallback, contextPointer,
                acceptPolicyCallback, notifyConnectionCallback, contextPointer,
                logger,
                UInt32(options.connections.total), UInt32(max(1, options.connections.idle.components.seconds)), 16 * 1024,
                options.tlsKeyPEM, options.tlsCertificatePEM)
        }
        guard let started else {
            guardian.stop()
            logger.deallocate()
            Unmanaged<HTTPServerContext>.fromOpaque(contextPointer).release()
            throw ConfigurationError("cannot listen on \(options.host):\(options.port) (in use, not permitted, or a bad TLS certificate or key)")
        }
        daemon = Mutex(DaemonHandle(pointer: started, context: contextPointer, logger: logger))
        port = Int(notibase_mhd_bound_port(started))
    }

    /// Connections open right now.
    package var openConnections: Int { context.connections.count }

    /// Stops accepting connections, waits up to `grace` for requests being answered to finish,
    /// answers those still waiting 503, then closes every connection.
    package func shutdown(grace: Duration = .seconds(10)) async {
        guard let handle = daemon.withLock({ $0 }) else { return }
        let listener = MHD_quiesce_daemon(handle.pointer)
        if listener >= 0 { close(listener) }
        // Requests already on open connections keep being read and answered: wait until none has
        // been in flight for a while (or the grace period ends).
        let deadline = ContinuousClock.now + grace
        var quietSince = ContinuousClock.now
        while ContinuousClock.now < deadline {
            if context.inFlight.withLock({ $0 }) > 0 { quietSince = ContinuousClock.now }
            if ContinuousClock.now - quietSince >= .milliseconds(100) { break }
            try? await Task.sleep(for: .milliseconds(5))
        }
        // What still waits is answered 503: libmicrohttpd cannot stop with a connection suspended
        // (it aborts the process). Each is resumed, answered and closed by the polling thread.
        context.answerSuspended()
        let flushed = ContinuousClock.now + .seconds(2)
        while ContinuousClock.now < flushed, context.inFlight.withLock({ $0 }) > 0 {
            try? await Task.sleep(for: .milliseconds(5))
        }
        // A moment for the answers just queued to be written.
        try? await Task.sleep(for: .milliseconds(100))
        guard let handle = daemon.withLock({ value -> DaemonHandle? in defer { value = nil }; return value }) else { return }
        context.connections.stop()
        MHD_stop_daemon(handle.pointer)
        handle.logger.deallocate()
        Unmanaged<HTTPServerContext>.fromOpaque(handle.context).release()
    }
}

/// The daemon and the retained context its callbacks receive.
private struct DaemonHandle: @unchecked Sendable {
    // Sendable by hand: the pointers are only used under the server's mutex or after it is cleared.
    package let pointer: OpaquePointer
    package let context: UnsafeMutableRawPointer
    /// What libmicrohttpd's logger calls; freed after the daemon stops.
    package let logger: UnsafeMutablePointer<notibase_mhd_logger>
}

/// What every callback needs: the responder, the body limit, the count of requests in flight,
/// the connections and bodies held, the suspended requests and the logger for libmicrohttpd's
/// messages.
package final class HTTPServerContext: Sendable {
    package let responder: any HTTPResponder
    package let maxBodyBytes: Int
    package let logger: Logger
    /// Requests whose connection is suspended.
    package let inFlight = Mutex(0)
    package let connections: ConnectionGuard
    package let budget: BodyBudget
    package let suspensions = Mutex(Suspensions())

    package init(responder: any HTTPResponder, maxBodyBytes: Int, logger: Logger, connections: ConnectionGuard, budget: BodyBudget) {
        self.responder = responder
        self.maxBodyBytes = maxBodyBytes
        self.logger = logger
        self.connections = connections
        self.budget = budget
    }
}

/// Raises this process's soft limit on open files to `count` (at most the hard limit): each
/// connection is a file descriptor, and the usual soft limit (1,024) is far below the
/// connection limit.
private func raiseDescriptorLimit(toAtLeast count: Int) {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(count) else { return }
    limit.rlim_cur = min(limit.rlim_max, rlim_t(count))
    _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
}
