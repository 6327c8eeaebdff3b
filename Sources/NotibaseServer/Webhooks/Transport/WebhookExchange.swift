import COpenSSL
import Foundation
import NotibaseSenders
#if canImport(Glibc)
import Glibc
#endif

/// One POST, driven by the poller's thread: on a connection kept from an earlier answer with the
/// same key (``WebhookConnection/Key``), or a new non-blocking socket to exactly the address that
/// was checked, TLS when the URL is https; the request written, then the answer's head and at most
/// 1 KB of its body read. The connection is kept for the next request only when the answer ended
/// exactly where its framing says and did not ask to close; otherwise it is closed. It never reads
/// more than `maxHeadBytes + maxBodyBytes` from the socket, and ends at its deadline whatever the
/// peer does.
final class WebhookExchange {
    /// What the transport hands the poller.
    struct Job: Sendable {
        var address: IPAddress
        var url: WebhookURL
        /// Set for https.
        var tls: WebhookTLSContext?
        /// The whole request: head and body.
        var request: [UInt8]
        var deadline: ContinuousClock.Instant
        /// Called once, on the poller's thread.
        var finish: @Sendable (Ending) -> Void

        /// Which kept connections may carry it.
        var connectionKey: WebhookConnection.Key {
            WebhookConnection.Key(address: address, port: url.port, host: url.host, tls: tls.map { ObjectIdentifier($0) })
        }
    }

    /// How it ended: the outcome, the answer body's first bytes (raw, at most `maxBodyBytes`), and
    /// whether it ran on a kept connection.
    struct Ending: Sendable {
        var outcome: WebhookAttempt.Outcome
        var body: [UInt8] = []
        var onKeptConnection = false
    }

    /// The largest answer head read (status line and headers).
    static let maxHeadBytes = 16 * 1024
    /// The most answer body read.
    static let maxBodyBytes = 1024

    private enum Phase { case connecting, handshaking, sending, reading, done }

    let fd: Int32
    var deadline: ContinuousClock.Instant { job.deadline }
    var isDone: Bool { phase == .done }
    let job: Job
    /// Whether it runs on a kept connection.
    let isReused: Bool
    /// Set when it ended with a whole answer that leaves the connection fit for another request:
    /// the poller keeps it.
    private(set) var kept: WebhookConnection?
    /// Set when a kept connection turned out closed before any of the answer arrived (the peer
    /// closed it while idle, as servers do): the job was not finished, and is to be run again on a
    /// new connection.
    private(set) var wantsNewConnection = false
    private var phase = Phase.connecting
    private var ssl: OpaquePointer?
    private var handshakeWantsWrite = false
    /// Which way the last TLS read or write said it must wait, when not the phase's own (a write
    /// that needs a record read first, or a read that needs to write): polling the phase's own way
    /// would wake at once, again and again, or never.
    private var tlsWaits: Int16?
    private var sent = 0
    /// Bytes read and not yet taken as a head.
    private var received: [UInt8] = []
    private var totalRead = 0
    private var head: WebhookAnswerHead?
    private var body: [UInt8] = []
    /// Every byte after the head, counting those past `maxBodyBytes` that were not kept.
    private var bodyCount = 0

    /// Starts sending on `connection`, or connecting when there is none; the exchange may already
    /// be done (and its job finished) when this returns.
    init(_ job: Job, on connection: WebhookConnection? = nil) {
        self.job = job
        isReused = connection != nil
        if let connection {
            fd = connection.fd
            ssl = connection.ssl
            phase = .sending
            return
        }
        guard let address = try? SocketAddress(host: job.address.description, port: Int(job.url.port)) else {
            fd = -1
            finish(.failed(reason: "\(job.address) is not an address to connect to"))
            return
        }
        fd = socket(address.isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            finish(.failed(reason: "could not open a socket: \(Self.text(errno))"))
            return
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let status = address.withSockAddr { connect(fd, $0, socklen_t(address.isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)) }
        if status != 0 && errno != EINPROGRESS {
            finish(.failed(reason: "could not connect to \(endpoint): \(Self.text(errno))"))
        }
    }

    deinit {
        if phase != .done { finish(.failed(reason: "the exchange was dropped"), mayRetry: false) }
    }

    /// What poll should wait for.
    var events: Int16 {
        switch phase {
        case .connecting: Int16(POLLOUT)
        case .sending: tlsWaits ?? Int16(POLLOUT)
        case .handshaking: handshakeWantsWrite ? Int16(POLLOUT) : Int16(POLLIN)
        case .reading: tlsWaits ?? Int16(POLLIN)
        case .done: 0
        }
    }

    /// Goes as far as the socket allows without waiting.
    func advance() {
        while true {
            switch phase {
            case .connecting:
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                guard error == 0 else { return finish(.failed(reason: "could not connect to \(endpoint): \(Self.text(error))")) }
                if let tls = job.tls {
                    guard let session = SSL_new(tls.context) else { return finish(.failed(reason: "could not start TLS: " + OpenSSLFailure("SSL_new").description)) }
                    ssl = session
                    SSL_set_fd(session, fd)
                    TLSPeer.expect(job.url.host, on: session)
                    phase = .handshaking
                } else {
                    phase = .sending
                }
            case .handshaking:
                guard let ssl else { return }
                switch TLSPeer.handshake(on: ssl) {
                case .done:
                    phase = .sending
                    continue
                case .wantsRead: handshakeWantsWrite = false
                case .wantsWrite: handshakeWantsWrite = true
                case .failed(let certificate?):
                    return finish(.failed(reason: "the certificate of \(endpoint) is not trusted: \(certificate)"))
                case .failed(nil):
                    return finish(.failed(reason: "the TLS handshake with \(endpoint) failed" + (OpenSSLFailure("the TLS handshake").queueText.map { " (OpenSSL: \($0))" } ?? "")))
                }
                return
            case .sending:
                let count = job.request.withUnsafeBytes { bytes in
                    transfer(write: true, UnsafeMutableRawPointer(mutating: bytes.baseAddress!) + sent, bytes.count - sent)
                }
                guard let count else { return finish(.failed(reason: "could not send the request to \(endpoint)")) }
                guard count > 0 else { return }
                sent += count
                if sent == job.request.count { phase = .reading }
            case .reading:
                var buffer = [UInt8](repeating: 0, count: 4096)
                let budget = min(buffer.count, Self.maxHeadBytes + Self.maxBodyBytes - totalRead)
                let count = buffer.withUnsafeMutableBytes { transfer(write: false, $0.baseAddress!, budget) }
                guard let count else { return endOfAnswer() }
                guard count > 0 else { return }
                totalRead += count
                take(buffer[..<count])
                if phase == .done { return }
                if totalRead >= Self.maxHeadBytes + Self.maxBodyBytes { return endOfAnswer() }
            case .done:
                return
            }
        }
    }

    /// Ends the exchange at its deadline: an answer whose head arrived is an answer (with the body
    /// read so far); otherwise the attempt timed out.
    func expire() {
        guard phase != .done else { return }
        if head != nil { return answered() }
        finish(.timedOut)
    }

    // MARK: The answer

    /// Takes bytes read: first the head (skipping interim 1xx answers), then the body's first bytes.
    private func take(_ bytes: ArraySlice<UInt8>) {
        guard head == nil else {
            bodyCount += bytes.count
            body.append(contentsOf: bytes.prefix(Self.maxBodyBytes - body.count))
            return bodyMayBeComplete()
        }
        received.append(contentsOf: bytes)
        while head == nil, let end = Self.endOfHead(in: received) {
            guard let parsed = WebhookAnswerHead(received[..<end.head]) else {
                return finish(.failed(reason: "\(endpoint) did not answer in HTTP/1"))
            }
            received.removeFirst(end.next)
            if parsed.status >= 200 { head = parsed }
        }
        guard head != nil else {
            if received.count > Self.maxHeadBytes { finish(.failed(reason: "the answer's head from \(endpoint) is longer than \(Self.maxHeadBytes) bytes")) }
            return
        }
        body = Array(received.prefix(Self.maxBodyBytes))
        bodyCount = received.count
        received = []
        bodyMayBeComplete()
    }

    /// Ends the answer once its body is all there (or its first KB is): the connection is kept
    /// when the answer ended exactly where its framing says, with nothing after it.
    private func bodyMayBeComplete() {
        guard let head else { return }
        let exactEnd: Int?
        if head.hasNoBody {
            exactEnd = 0
        } else if head.isChunked {
            exactEnd = WebhookAnswerHead.chunkedEnd(body)
        } else if let length = head.contentLength {
            exactEnd = bodyCount >= length ? length : nil
        } else {
            exactEnd = nil  // a body that lasts until the connection closes
        }
        if let exactEnd {
            answered(keeping: head.keepsConnection && bodyCount == exactEnd && bodyCount <= Self.maxBodyBytes)
        } else if body.count >= Self.maxBodyBytes {
            answered(keeping: false)
        }
    }

    /// The peer closed the connection, or the read budget is spent.
    private func endOfAnswer() {
        if head != nil { return answered() }
        finish(.failed(reason: "\(endpoint) closed the connection before a whole answer head"))
    }

    private func answered(keeping: Bool = false) {
        guard let head else { return }
        let retryAfter = head.retryAfter.flatMap { RetryAfter.parse($0, now: .now) }
        let bytes = head.isChunked ? WebhookAnswerHead.dechunk(body) : body
        finish(.answered(status: head.status, retryAfter: retryAfter), body: Array(bytes.prefix(Self.maxBodyBytes)), keeping: keeping)
    }

    /// Where the blank line after a head is: the head's end and where what follows starts.
    private static func endOfHead(in bytes: [UInt8]) -> (head: Int, next: Int)? {
        var index = 0
        while let newline = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) {
            let next = newline + 1
            if next < bytes.count, bytes[next] == UInt8(ascii: "\n") { return (newline, next + 1) }
            if next + 1 < bytes.count, bytes[next] == UInt8(ascii: "\r"), bytes[next + 1] == UInt8(ascii: "\n") { return (newline, next + 2) }
            index = next
        }
        return nil
    }

    // MARK: The socket

    /// Writes or reads up to `count` bytes: how many moved (0 when the socket would block), or nil
    /// when the connection failed or (reading) ended.
    private func transfer(write: Bool, _ pointer: UnsafeMutableRawPointer, _ count: Int) -> Int? {
        guard count > 0 else { return 0 }
        if let ssl {
            OpenSSLFailure.clearQueue()
            let result = write ? SSL_write(ssl, pointer, Int32(count)) : SSL_read(ssl, pointer, Int32(count))
            tlsWaits = nil
            if result > 0 { return Int(result) }
            switch SSL_get_error(ssl, result) {
            case SSL_ERROR_WANT_READ:
                tlsWaits = Int16(POLLIN)
                return 0
            case SSL_ERROR_WANT_WRITE:
                tlsWaits = Int16(POLLOUT)
                return 0
            default:
                return nil
            }
        }
        let result = write ? send(fd, pointer, count, Int32(MSG_NOSIGNAL)) : recv(fd, pointer, count, 0)
        if result > 0 { return result }
        return result < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) ? 0 : nil
    }

    private func finish(_ outcome: WebhookAttempt.Outcome, body: [UInt8] = [], keeping: Bool = false, mayRetry: Bool = true) {
        guard phase != .done else { return }
        // A kept connection the peer had closed fails before any answer byte: the job goes again
        // on a new connection, within its deadline. (The request may have reached the peer before
        // it closed; a batch sent twice is what receivers deduplicate.)
        let closedWhileIdle = mayRetry && isReused && totalRead == 0 && (phase == .sending || phase == .reading)
        if case .failed = outcome, closedWhileIdle { wantsNewConnection = true }
        phase = .done
        if keeping {
            kept = WebhookConnection(fd: fd, ssl: ssl, key: job.connectionKey, idleSince: .now, context: job.tls)
        } else {
            if let ssl { SSL_free(ssl) }
            if fd >= 0 { Glibc.close(fd) }
        }
        ssl = nil
        if !wantsNewConnection { job.finish(Ending(outcome: outcome, body: body, onKeptConnection: isReused)) }
    }

    /// The host and port, for messages (never the path or query).
    private var endpoint: String { job.url.hostHeader }

    private static func text(_ code: Int32) -> String { String(cString: strerror(code)) }
}
