/// A request that got no HTTP answer: why, and whether the peer may have received it.
struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as far as a sender's retry policy cares.
    enum Kind: String, Sendable, Hashable {
        /// No connection could be made (refused, unresolvable, unreachable). Nothing was sent.
        case connectFailed
        /// The connection broke or was closed (GOAWAY, reset, peer gone) while the request was in
        /// flight. It may or may not have been processed.
        case connectionLost
        /// No complete answer within the request's timeout.
        case timedOut
        /// TLS failed: an untrusted or wrong certificate, or a rejected client certificate.
        case tls
        /// The client was shut down before the request finished.
        case shutdown
        /// Anything else (an unusable URL, a session that could not be made).
        case other
    }

    var kind: Kind
    /// The step that failed, when one is known.
    var cause: Cause?
    /// What happened. Never contains the request's headers or body.
    var message: String

    /// The step of a request that failed, finer than ``Kind``.
    enum Cause: String, Sendable, Hashable {
        case unresolvedHost = "unresolved host"
        case connect
        case http2Protocol = "HTTP/2 protocol"
        case timeout
        case tlsHandshake = "TLS handshake"
        case send
        case receive
        /// Our own client certificate or its key could not be used.
        case clientCertificate = "client certificate"
        case untrustedPeer = "untrusted peer"
        case streamReset = "stream reset"
    }

    init(kind: Kind, cause: Cause? = nil, message: String) {
        self.kind = kind
        self.cause = cause
        self.message = message
    }

    /// Whether the request may have reached the peer (so a retry could deliver it twice).
    var mayHaveBeenReceived: Bool {
        switch kind {
        case .connectFailed, .tls: false
        case .connectionLost, .timedOut, .shutdown, .other: true
        }
    }

    var description: String {
        cause.map { "\(kind.rawValue) (\($0.rawValue)): \(message)" } ?? "\(kind.rawValue): \(message)"
    }
}
