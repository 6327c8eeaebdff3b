import CNGHTTP2
import COpenSSL
import NotibaseCore
#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/2-over-TLS connection, driven by its event loop: a non-blocking socket, an OpenSSL
/// session and an nghttp2 client session. Everything happens on the loop's thread.
final class H2Connection {
    enum State { case connecting, handshaking, ready, closed }

    let origin: Origin
    let fd: Int32
    private(set) var state = State.connecting
    private(set) var streams: [Int32: H2Stream] = [:]
    /// The peer sent GOAWAY (or we are closing): no new streams.
    private(set) var goingAway = false
    /// Streams the peer refused unprocessed (above its GOAWAY's last stream, or REFUSED_STREAM):
    /// the loop sends them again on another connection, as HTTP/2 allows.
    var refused: [H2Stream] = []
    /// Why the connection closed, once it has.
    private(set) var failure: TransportError?
    /// When anything was last read or sent (PINGs are due after `pingInterval` of this).
    private(set) var lastActivity = ContinuousClock.now
    /// When a stream last opened or closed (the connection closes after `maxIdleTime` of this).
    private var lastUse = ContinuousClock.now
    private var pingSentAt: ContinuousClock.Instant?
    private let connectDeadline: ContinuousClock.Instant
    private let configuration: HTTP2ClientConfiguration
    private var ssl: OpaquePointer?
    private var session: OpaquePointer?
    private var handshakeWantsWrite = false
    private var remoteMaxStreams = 100
    private var output: [UInt8] = []
    private var outputOffset = 0
    private var input = [UInt8](repeating: 0, count: 65_536)
    private let authority: String

    /// Starts connecting to `origin` (a non-blocking connect; DNS is resolved here).
    init(origin: Origin, tls: TLSContext, configuration: HTTP2ClientConfiguration) throws(TransportError) {
        self.origin = origin
        self.configuration = configuration
        authority = origin.authority
        connectDeadline = .now + configuration.connectTimeout
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(origin.host, String(origin.port), &hints, &found) == 0, let address = found else {
            throw TransportError(kind: .connectFailed, cause: .unresolvedHost, message: "could not resolve \(origin.host)")
        }
        defer { freeaddrinfo(found) }
        fd = socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TransportError(kind: .connectFailed, cause: .connect, message: "socket: errno \(errno)") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        if let ping = configuration.pingInterval {
            var seconds = Int32(max(1, ping.components.seconds))
            setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, socklen_t(MemoryLayout<Int32>.size))
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPIDLE, &seconds, socklen_t(MemoryLayout<Int32>.size))
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPINTVL, &seconds, socklen_t(MemoryLayout<Int32>.size))
        }
        if connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) != 0 && errno != EINPROGRESS {
            let code = errno
            Glibc.close(fd)
            throw TransportError(kind: .connectFailed, cause: .connect, message: "could not connect to \(origin.authority): \(String(cString: strerror(code)))")
        }
        ssl = SSL_new(tls.context)
    }

    deinit {
        if state != .closed { close(TransportError(kind: .shutdown, message: "the connection was released")) }
    }

    /// Takes no new streams; the connection closes once its streams are done.
    func retire() {
        goingAway = true
    }

    /// Whether the connection takes another stream now.
    func canTakeStream(limit: Int) -> Bool {
        state == .ready && !goingAway && streams.count < min(remoteMaxStreams, limit)
    }

    /// Whether poll should wait for writability.
    var wantsWrite: Bool {
        switch state {
        case .connecting: true
        case .handshaking: handshakeWantsWrite
        case .ready: outputOffset < output.count || (session.map { nghttp2_session_want_write($0) != 0 } ?? false)
        case .closed: false
        }
    }

    /// Handles what poll reported for the socket.
    func handle(events: Int16) {
        switch state {
        case .connecting:
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
            if error != 0 {
                close(TransportError(kind: .connectFailed, cause: .connect, message: "could not connect to \(origin.authority): \(String(cString: strerror(error)))"))
                return
            }
            if events & Int16(POLLOUT) != 0 { startHandshake() }
        case .handshaking:
            continueHandshake()
        case .ready:
            if events & Int16(POLLIN | POLLERR | POLLHUP) != 0 { readAvailable() }
            if state == .ready { flush() }
        case .closed:
            break
        }
    }

    /// Sends a request on a new stream. Returns false when the session refuses it.
    func submit(_ job: HTTP2Job, path: String, deadline: ContinuousClock.Instant) -> Bool {
        guard let session else { return false }
        let request = job.request
        // Names and values, back to back, in one buffer that the name-value pairs point into
        // (nghttp2 copies them). HTTP/2 header names are lowercase; the renderers send them so.
        var storage: [UInt8] = []
        storage.reserveCapacity(64 + authority.utf8.count + path.utf8.count + request.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count })
        var lengths: [(name: Int, value: Int)] = []
        lengths.reserveCapacity(4 + request.headers.count)
        func add(_ name: some Collection<UInt8>, _ value: some Collection<UInt8>) {
            storage.append(contentsOf: name)
            storage.append(contentsOf: value)
            lengths.append((name.count, value.count))
        }
        add(":method".utf8, request.method.utf8)
        add(":scheme".utf8, "https".utf8)
        add(":authority".utf8, authority.utf8)
        add(":path".utf8, path.utf8)
        for header in request.headers {
            if header.name.utf8.contains(where: { (0x41...0x5A).contains($0) }) {
                add(header.name.lowercased().utf8, header.value.utf8)
            } else {
                add(header.name.utf8, header.value.utf8)
            }
        }
        let stream = H2Stream(job: job, path: path, deadline: deadline)
        let id: Int32 = storage.withUnsafeMutableBufferPointer { bytes in
            var offset = 0
            var nameValues = lengths.map { length -> nghttp2_nv in
                let name = bytes.baseAddress! + offset
                let value = name + length.name
                offset += length.name + length.value
                return nghttp2_nv(name: name, value: value, namelen: length.name, valuelen: length.value, flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
            }
            if request.body.isEmpty && request.method == "GET" {
                return nghttp2_submit_request(session, nil, &nameValues, nameValues.count, nil, nil)
            }
            var provider = nghttp2_data_provider(source: nghttp2_data_source(ptr: nil), read_callback: h2ReadBody)
            return nghttp2_submit_request(session, nil, &nameValues, nameValues.count, &provider, nil)
        }
        guard id > 0 else { return false }
        streams[id] = stream
        lastActivity = .now
        lastUse = lastActivity
        return true
    }

    /// Fails streams past their deadline (they are reset) and a connection stuck connecting; sends
    /// a PING on an idle connection and drops one whose PING went unanswered or that idled too long.
    func checkTimers(now: ContinuousClock.Instant) {
        switch state {
        case .connecting, .handshaking:
            if now >= connectDeadline {
                close(TransportError(kind: .connectFailed, cause: .timeout, message: "no TLS connection to \(origin.authority) within \(configuration.connectTimeout)"))
            }
        case .ready:
            for (id, stream) in streams where now >= stream.deadline {
                streams[id] = nil
                if let session { nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), id, NGHTTP2_CANCEL.rawValue) }
                stream.job.complete(.failure(TransportError(kind: .timedOut, cause: .timeout, message: "no answer within the request timeout")))
            }
            if let sent = pingSentAt, now - sent > max(configuration.connectTimeout, .seconds(5)) {
                close(TransportError(kind: .connectionLost, cause: .http2Protocol, message: "the peer stopped answering PINGs"))
            } else if streams.isEmpty, now - lastUse > configuration.maxIdleTime {
                close(TransportError(kind: .connectionLost, message: "idle too long"))
            } else if let interval = configuration.pingInterval, streams.isEmpty, pingSentAt == nil, now - lastActivity >= interval, let session {
                nghttp2_submit_ping(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), nil)
                pingSentAt = now
                lastActivity = now
            }
            if goingAway && streams.isEmpty { close(TransportError(kind: .connectionLost, message: "closed after GOAWAY")) }
        case .closed:
            break
        }
    }

    /// Closes the connection; open streams fail with `error` (connection lost unless said otherwise).
    func close(_ error: TransportError) {
        guard state != .closed else { return }
        state = .closed
        goingAway = true
        failure = error
        let open = streams.values
        streams = [:]
        if let session { nghttp2_session_del(session) }
        session = nil
        if let ssl { SSL_free(ssl) }
        ssl = nil
        Glibc.close(fd)
        for stream in open { stream.job.complete(.failure(error)) }
    }

    // MARK: TLS

    private func startHandshake() {
        guard let ssl else { return close(TLSContext.error("could not create a TLS session")) }
        state = .handshaking
        SSL_set_fd(ssl, fd)
        TLSPeer.expect(origin.host, on: ssl)
        continueHandshake()
    }

    private func continueHandshake() {
        guard let ssl else { return }
        switch TLSPeer.handshake(on: ssl) {
        case .done:
            var protocolName: UnsafePointer<UInt8>?
            var length: UInt32 = 0
            SSL_get0_alpn_selected(ssl, &protocolName, &length)
            guard length == 2, let protocolName, protocolName[0] == UInt8(ascii: "h"), protocolName[1] == UInt8(ascii: "2") else {
                return close(TransportError(kind: .tls, cause: .tlsHandshake, message: "\(origin.authority) does not offer HTTP/2 (ALPN h2)"))
            }
            startSession()
        case .wantsRead: handshakeWantsWrite = false
        case .wantsWrite: handshakeWantsWrite = true
        case .failed(let certificate?):
            close(TransportError(kind: .tls, cause: .untrustedPeer, message: "the certificate of \(origin.authority) is not trusted: " + certificate))
        case .failed(nil):
            close(TLSContext.error("TLS handshake with \(origin.authority) failed"))
        }
    }

    // MARK: HTTP/2

    private func startSession() {
        guard let session = makeClientSession(owner: self) else { return close(TransportError(kind: .other, message: "could not create an HTTP/2 session")) }
        self.session = session
        state = .ready
        var settings = [
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_ENABLE_PUSH.rawValue), value: 0),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: 1 << 20),
        ]
        nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count)
        nghttp2_session_set_local_window_size(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, 1 << 24)
        lastActivity = .now
        flush()
    }

    /// Reads everything the socket has and feeds it to nghttp2.
    private func readAvailable() {
        guard let ssl, let session else { return }
        while state == .ready {
            OpenSSLFailure.clearQueue()
            let count = input.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if count > 0 {
                lastActivity = .now
                let consumed = input.withUnsafeBufferPointer { nghttp2_session_mem_recv(session, $0.baseAddress, Int(count)) }
                if consumed < 0 {
                    return close(TransportError(kind: .connectionLost, cause: .http2Protocol, message: "HTTP/2 protocol error: " + String(cString: nghttp2_strerror(Int32(consumed)))))
                }
                continue
            }
            let error = SSL_get_error(ssl, count)
            if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { break }
            return close(TransportError(kind: .connectionLost, cause: .receive, message: "\(origin.authority) closed the connection"))
        }
        if state == .ready, nghttp2_session_want_read(session) == 0, nghttp2_session_want_write(session) == 0 {
            close(TransportError(kind: .connectionLost, message: "the HTTP/2 session ended"))
        }
    }

    /// Writes what nghttp2 has to send, batching frames into large TLS writes.
    func flush() {
        guard state == .ready, let ssl, let session else { return }
        while true {
            if outputOffset == output.count {
                output.removeAll(keepingCapacity: true)
                outputOffset = 0
                while output.count < 65_536 {
                    var chunk: UnsafePointer<UInt8>?
                    let length = nghttp2_session_mem_send(session, &chunk)
                    if length < 0 { return close(TransportError(kind: .connectionLost, cause: .http2Protocol, message: "HTTP/2 error: " + String(cString: nghttp2_strerror(Int32(length))))) }
                    if length == 0 { break }
                    output.append(contentsOf: UnsafeBufferPointer(start: chunk, count: length))
                }
                if output.isEmpty { return }
            }
            OpenSSLFailure.clearQueue()
            let written = output.withUnsafeBytes { SSL_write(ssl, $0.baseAddress! + outputOffset, Int32($0.count - outputOffset)) }
            if written > 0 {
                outputOffset += Int(written)
                continue
            }
            let error = SSL_get_error(ssl, written)
            if error == SSL_ERROR_WANT_WRITE || error == SSL_ERROR_WANT_READ { return }
            return close(TransportError(kind: .connectionLost, cause: .send, message: "could not write to \(origin.authority)"))
        }
    }

    // MARK: Callbacks from nghttp2

    func received(header name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>, stream id: Int32) {
        guard let stream = streams[id] else { return }
        if name.elementsEqual(":status".utf8) {
            stream.status = value.reduce(0) { $0 * 10 + Int($1 &- 0x30) }
        } else {
            if stream.headerBlock.isEmpty { stream.headerBlock.reserveCapacity(256) }
            HTTP2Response.append(name: name, value: value, to: &stream.headerBlock)
        }
    }

    func received(data: UnsafeBufferPointer<UInt8>, stream id: Int32) {
        streams[id]?.body.append(contentsOf: data)
    }

    func received(frameType: UInt32, flags: UInt8) {
        switch frameType {
        case NGHTTP2_GOAWAY.rawValue:
            goingAway = true
        case NGHTTP2_PING.rawValue where flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) != 0:
            pingSentAt = nil
        case NGHTTP2_SETTINGS.rawValue:
            if let session { remoteMaxStreams = Int(nghttp2_session_get_remote_settings(session, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS)) }
        default:
            break
        }
    }

    func streamClosed(_ id: Int32, errorCode: UInt32) {
        guard let stream = streams.removeValue(forKey: id) else { return }
        lastActivity = .now
        lastUse = lastActivity
        if errorCode == NGHTTP2_NO_ERROR.rawValue && stream.status != 0 {
            stream.job.complete(.success(stream.response))
        } else if errorCode == NGHTTP2_REFUSED_STREAM.rawValue {
            refused.append(stream)
        } else {
            stream.job.complete(.failure(TransportError(kind: .connectionLost, cause: .streamReset, message: "the stream was reset: " + String(cString: nghttp2_http2_strerror(errorCode)))))
        }
    }

    func readBody(stream id: Int32, into buffer: UnsafeMutablePointer<UInt8>, length: Int, flags: UnsafeMutablePointer<UInt32>) -> Int {
        guard let stream = streams[id] else { return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue) }
        let count = min(length, stream.requestBody.count - stream.bodySent)
        if count > 0 {
            stream.requestBody.withUnsafeBufferPointer { body in
                buffer.update(from: body.baseAddress! + stream.bodySent, count: count)
            }
        }
        stream.bodySent += count
        if stream.bodySent == stream.requestBody.count { flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue }
        return count
    }
}
