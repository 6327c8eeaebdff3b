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

    /// The classification.
    var kind: Kind
    /// A number for the kind of failure, following libcurl's `CURLcode` values (6 unresolved,
    /// 7 connect, 16 HTTP/2, 28 timeout, 35 TLS, 55 send, 56 receive, 58 local certificate,
    /// 60 untrusted peer, 92 stream reset), or 0.
    var code: Int32
    /// What happened. Never contains the request's headers or body.
    var message: String

    /// An error from its parts.
    init(kind: Kind, code: Int32 = 0, message: String) {
        self.kind = kind
        self.code = code
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
        code == 0 ? "\(kind.rawValue): \(message)" : "\(kind.rawValue) (\(code)): \(message)"
    }
}
