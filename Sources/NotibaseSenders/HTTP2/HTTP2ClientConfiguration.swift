/// How an `HTTP2Client` connects: connection cap, trust, client certificate and keep-alive.
struct HTTP2ClientConfiguration: Sendable, Hashable {
    /// The most connections open at once to one host; requests beyond what they can carry wait.
    var maxConnectionsPerHost: Int
    /// The most concurrent streams Notibase opens on one connection (the peer may allow fewer).
    var maxStreamsPerConnection: Int
    /// How many event-loop threads (each with its share of the connections) carry the requests; at
    /// most `maxConnectionsPerHost`. One thread per connection spreads the TLS and HTTP/2 work over
    /// cores.
    var eventLoops: Int
    /// The most requests on streams at once (over all connections); more wait in order, their
    /// timeout running.
    var maxRequestsInFlight: Int
    /// A PEM file of the certificate authorities to trust instead of the system's (test peers).
    var caFile: String?
    /// A TLS client certificate and its private key, both PEM (APNs certificate authentication).
    var clientCertificate: ClientCertificate?
    /// The limit for establishing a connection, TLS included.
    var connectTimeout: Duration
    /// How long a connection may stay idle and still be reused (APNs asks for hours-long reuse).
    var maxIdleTime: Duration
    /// When set, an idle connection is sent an HTTP/2 PING at this interval (and TCP keep-alive
    /// probes); a connection whose PING goes unanswered is closed and replaced on next use.
    var pingInterval: Duration?

    /// A TLS client certificate and key, PEM.
    struct ClientCertificate: Sendable, Hashable {
        /// The certificate (chain), PEM.
        var certificatePEM: String
        var privateKeyPEM: String

        /// A certificate and key from their PEM texts.
        init(certificatePEM: String, privateKeyPEM: String) {
            self.certificatePEM = certificatePEM
            self.privateKeyPEM = privateKeyPEM
        }
    }

    /// A configuration; the defaults suit APNs and FCM.
    init(
        maxConnectionsPerHost: Int = 2,
        maxStreamsPerConnection: Int = 1000,
        eventLoops: Int = 1,
        maxRequestsInFlight: Int = 256,
        caFile: String? = nil,
        clientCertificate: ClientCertificate? = nil,
        connectTimeout: Duration = .seconds(10),
        maxIdleTime: Duration = .seconds(6 * 3600),
        pingInterval: Duration? = .seconds(60)
    ) {
        self.maxConnectionsPerHost = maxConnectionsPerHost
        self.maxStreamsPerConnection = maxStreamsPerConnection
        self.eventLoops = max(1, eventLoops)
        self.maxRequestsInFlight = max(1, maxRequestsInFlight)
        self.caFile = caFile
        self.clientCertificate = clientCertificate
        self.connectTimeout = connectTimeout
        self.maxIdleTime = maxIdleTime
        self.pingInterval = pingInterval
    }
}

extension Duration {
    /// The duration in whole milliseconds (rounded down), for C APIs.
    var wholeMilliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
