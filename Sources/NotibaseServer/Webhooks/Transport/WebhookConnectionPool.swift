import COpenSSL
import Foundation
import NotibaseSenders
#if canImport(Glibc)
import Glibc
#endif

/// An open connection an exchange left for the next request to the same place: its socket, its
/// TLS session when https, and when it went idle.
struct WebhookConnection {
    /// What a connection may be reused for: the exact address checked for the attempt that made
    /// it, the port, the name its certificate was verified for (and the Host header), and the TLS
    /// context (the trust) it was verified under. A request takes a kept connection only when its
    /// own attempt, checked just now, has the same key: a name that resolves elsewhere now, or a
    /// transport with other trust, gets a connection of its own.
    struct Key: Hashable {
        var address: IPAddress
        var port: UInt16
        var host: String
        var tls: ObjectIdentifier?
    }

    let fd: Int32
    let ssl: OpaquePointer?
    let key: Key
    var idleSince: ContinuousClock.Instant
    /// Held while the connection is kept: the key names the context by its identity, and an
    /// object's identity is its address, which a context made after this one was freed could
    /// take (a transport with other trust would then match the key).
    let context: WebhookTLSContext?

    /// Whether the peer has neither closed it nor sent anything since its last answer (either
    /// means it is no longer fit for a request). Never waits.
    func isStillOpen() -> Bool {
        if let ssl {
            // A TLS record that is not data (a session ticket, a key update) is taken in and the read
            // wants more: still open. Data, a close_notify, an error, or a handshake the peer
            // started (a renegotiation, which the context refuses anyway): not.
            OpenSSLFailure.clearQueue()
            var byte: UInt8 = 0
            let result = SSL_read(ssl, &byte, 1)
            let open = result <= 0 && SSL_get_error(ssl, result) == SSL_ERROR_WANT_READ && SSL_in_init(ssl) == 0
            OpenSSLFailure.clearQueue()
            return open
        }
        var byte: UInt8 = 0
        let result = recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        return result < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }

    func close() {
        if let ssl { SSL_free(ssl) }
        _ = Glibc.close(fd)
    }
}

/// The poller's kept connections (its thread only). A connection is kept after an answer that
/// ended exactly where its framing says and did not ask to close; it is taken for the next request
/// with the same key, at most ``idleLimit`` after it went idle and only when
/// ``WebhookConnection/isStillOpen()``. Bounded: ``perKey`` a key, ``limit`` in all, the oldest
/// closed first. docs/decisions/0045.
struct WebhookConnectionPool {
    /// How long a connection is kept idle: below the idle timeouts of common servers' defaults
    /// that are longer than a batch's wait (nginx 75 s, Go's none), and of NAT gateways.
    static let idleLimit: Duration = .seconds(15)
    /// An endpoint has one batch in flight at a time, so one connection a key is the common case;
    /// a second covers two endpoints of the same receiver.
    static let perKey = 2
    static let limit = 256

    private var idle: [WebhookConnection.Key: [WebhookConnection]] = [:]
    private(set) var count = 0

    /// An open connection for `key`, the most recently used first; the stale ones met on the way
    /// are closed.
    mutating func take(_ key: WebhookConnection.Key, now: ContinuousClock.Instant) -> WebhookConnection? {
        while let connection = idle[key]?.popLast() {
            count -= 1
            if idle[key]?.isEmpty == true { idle[key] = nil }
            if now - connection.idleSince < Self.idleLimit, connection.isStillOpen() { return connection }
            connection.close()
        }
        return nil
    }

    /// Keeps `connection`, closing the oldest of its key or of all when over the bounds.
    mutating func put(_ connection: WebhookConnection) {
        idle[connection.key, default: []].append(connection)
        count += 1
        if let kept = idle[connection.key], kept.count > Self.perKey {
            kept[0].close()
            idle[connection.key]?.removeFirst()
            count -= 1
        }
        if count > Self.limit, let oldest = idle.min(by: { $0.value[0].idleSince < $1.value[0].idleSince }) {
            oldest.value[0].close()
            idle[oldest.key]?.removeFirst()
            if idle[oldest.key]?.isEmpty == true { idle[oldest.key] = nil }
            count -= 1
        }
    }

    /// Closes the connections idle for ``idleLimit``.
    mutating func closeExpired(now: ContinuousClock.Instant) {
        guard count > 0 else { return }
        for (key, connections) in idle {
            // Oldest first: the expired ones lead.
            let expired = connections.prefix { now - $0.idleSince >= Self.idleLimit }
            guard !expired.isEmpty else { continue }
            for connection in expired { connection.close() }
            idle[key] = expired.count == connections.count ? nil : Array(connections.dropFirst(expired.count))
            count -= expired.count
        }
    }

    /// When the next connection's idle time runs out, for the poller's wait.
    var nextExpiry: ContinuousClock.Instant? {
        idle.values.lazy.compactMap { $0.first?.idleSince }.min().map { $0 + Self.idleLimit }
    }
}
