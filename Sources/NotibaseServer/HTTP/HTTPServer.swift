import CMicroHTTPD
import Foundation
import Synchronization

/// An HTTP/1.1 server (keep-alive, optional TLS) on libmicrohttpd.
///
/// libmicrohttpd reads requests on its own polling thread. When a request's body is complete the
/// responder either answers at once or answers later: then the connection is suspended until the
/// reply comes (from a Swift task, or a storage callback), resumed, and the response queued.
/// Nothing async runs on the polling thread.
final class HTTPServer: Sendable {
    /// Where and how to listen.
    struct Options: Sendable {
        /// An IPv4 or IPv6 address to bind (`127.0.0.1`, `0.0.0.0`, `::1`).
        var host: String
        /// The TCP port; 0 picks a free one (see ``HTTPServer/port``).
        var port: Int
        /// The largest request body accepted; larger ones are answered 413.
        var maxBodyBytes: Int
        /// The most connections at once.
        var connectionLimit: Int = 10_000
        /// Seconds an idle keep-alive connection is kept.
        var idleTimeout: Int = 60
        /// PEM text of the TLS certificate chain and key; both or neither.
        var tlsCertificatePEM: String?
        var tlsKeyPEM: String?
        /// Where libmicrohttpd's own messages go (as warnings, with `"source": "libmicrohttpd"`).
        var logger = Logger()

        init(host: String, port: Int, maxBodyBytes: Int, tlsCertificatePEM: String? = nil, tlsKeyPEM: String? = nil) {
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
    let port: Int

    /// Binds and starts serving.
    init(options: Options, responder: any HTTPResponder) throws {
        let context = HTTPServerContext(responder: responder, maxBodyBytes: options.maxBodyBytes, logger: options.logger)
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
                logger,
                UInt32(options.connectionLimit), UInt32(options.idleTimeout), 16 * 1024,
                options.tlsKeyPEM, options.tlsCertificatePEM)
        }
        guard let started else {
            logger.deallocate()
            Unmanaged<HTTPServerContext>.fromOpaque(contextPointer).release()
            throw ConfigurationError("cannot listen on \(options.host):\(options.port) (in use, not permitted, or a bad TLS certificate or key)")
        }
        daemon = Mutex(DaemonHandle(pointer: started, context: contextPointer, logger: logger))
        port = Int(notibase_mhd_bound_port(started))
    }

    /// Requests being answered right now.
    var requestsInFlight: Int { context.inFlight.withLock { $0 } }

    /// Stops accepting connections, waits up to `grace` for requests being answered to finish,
    /// then closes every connection.
    func shutdown(grace: Duration = .seconds(10)) async {
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
        guard let handle = daemon.withLock({ value -> DaemonHandle? in defer { value = nil }; return value }) else { return }
        MHD_stop_daemon(handle.pointer)
        handle.logger.deallocate()
        Unmanaged<HTTPServerContext>.fromOpaque(handle.context).release()
    }
}

/// The daemon and the retained context its callbacks receive.
private struct DaemonHandle: @unchecked Sendable {
    // Sendable by hand: the pointers are only used under the server's mutex or after it is cleared.
    let pointer: OpaquePointer
    let context: UnsafeMutableRawPointer
    /// What libmicrohttpd's logger calls; freed after the daemon stops.
    let logger: UnsafeMutablePointer<notibase_mhd_logger>
}

/// What every callback needs: the responder, the body limit, the count of requests in flight and
/// the logger for libmicrohttpd's messages.
final class HTTPServerContext: Sendable {
    let responder: any HTTPResponder
    let maxBodyBytes: Int
    let logger: Logger
    let inFlight = Mutex(0)

    init(responder: any HTTPResponder, maxBodyBytes: Int, logger: Logger) {
        self.responder = responder
        self.maxBodyBytes = maxBodyBytes
        self.logger = logger
    }
}
