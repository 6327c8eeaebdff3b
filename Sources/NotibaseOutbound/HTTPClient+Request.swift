package import NotibaseDomain
extension HTTPClient {
    /// One request, and the bounds it is sent within.
    package struct Request: Sendable {
        package var method = "POST"
        /// Absolute (`https`, or `http` with ``allowsPlainHTTP``); the host is never looked up.
        package var url: String
        /// Sent after libcurl's own `Host` and `Content-Length` (it sends no `Accept` or `Expect`).
        package var headers: [(name: String, value: String)] = []
        package var body: [UInt8] = []
        /// The one address connected to for the URL's host and port, which the caller checked.
        package var address: IPAddress
        /// Asked again of the address actually connected just before the request is sent (on a
        /// kept connection too): false ends the transfer with nothing sent.
        package var admits: @Sendable (IPAddress) -> Bool = { _ in true }
        /// The whole transfer's: connecting, TLS, sending and reading the answer.
        package var deadline: ContinuousClock.Instant
        /// The most of the answer's body read: past it the transfer ends and its connection closes.
        package var answerLimit = 1024
        package var version = Version.http1_1
        package var trust = Trust.system
        package var allowsPlainHTTP = false
    }

    /// `http2`: over TLS (ALPN), requests multiplexed on a connection to the same place.
    package enum Version: Sendable { case http1_1, http2 }

    /// The certificate authorities a server's certificate must chain to.
    package enum Trust: Sendable, Equatable {
        /// The system's: on Debian the `ca-certificates` bundle.
        case system
        /// The PEM certificates in this file instead (a test's own authority).
        case certificateFile(String)
    }

    /// A whole answer head, and the body's first ``Request/answerLimit`` bytes (fewer when the
    /// deadline or the connection's end cut it).
    package struct Answer: Sendable {
        package var status: Int
        package var headers: [(name: String, value: String)]
        package var body: [UInt8] = []

        /// The last value of the header `name` (any case).
        package func header(_ name: String) -> String? {
            headers.last { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    package enum Outcome: Sendable {
        case answered(Answer)
        /// The deadline passed before a whole answer head.
        case timedOut
        /// Connecting, TLS or the connection failed, in words naming the host and port (never the
        /// path or query).
        case failed(String)
        /// The address connected to was not one ``Request/admits``: nothing was sent.
        case peerRefused(IPAddress)
    }

    /// What became of a request, and whether it went on a connection an earlier answer left open.
    package struct Ending: Sendable {
        package var outcome: Outcome
        package var reusedConnection = false
    }
}

extension HTTPClient.Request {
    /// For another target (Swift's memberwise initialiser is internal): the rest are set after.
    package init(url: String, address: IPAddress, deadline: ContinuousClock.Instant) {
        self.url = url
        self.address = address
        self.deadline = deadline
    }
}
