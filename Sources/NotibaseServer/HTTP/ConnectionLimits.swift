/// How many connections the HTTP server holds, from whom, and for how long a request may take to
/// arrive. Every deadline is a total, counted from a fixed point: sending a byte now and then
/// does not extend it (libmicrohttpd's own timeout, ``idle``, is reset by every byte).
struct ConnectionLimits: Sendable {
    /// The most connections at once.
    var total = 10_000
    /// The most connections from one address (IPv4 whole, IPv6 by /64); trusted proxies are
    /// counted only in ``total``. Also the most requests in progress from one client address.
    var perAddress = 256
    /// Of ``total``, the connections kept for addresses that hold none yet: once fewer than this
    /// are free, an address that already has a connection gets no other.
    var reserved = 1_000
    /// A request's head (request line and headers) must be complete this long after the
    /// connection opened, or, on a kept-alive connection, after its request line arrived.
    var head: Duration = .seconds(10)
    /// A request's body must be complete this long after its head.
    var body: Duration = .seconds(30)
    /// A kept-alive connection's next request line must arrive this long after the last answer.
    var idle: Duration = .seconds(60)
    /// Proxies whose `X-Forwarded-For` names the client for the per-address request limit.
    var trustedProxies: Set<IPAddress> = []

    init() {}
}

extension ConnectionLimits {
    /// The limits `notibase serve` was given; throws for a trusted proxy that is not an address.
    init(_ settings: ServerConfiguration.Connections) throws {
        self.init()
        total = settings.total
        perAddress = settings.perAddress
        reserved = min(settings.reserved, settings.total - 1)
        head = settings.headTimeout
        body = settings.bodyTimeout
        idle = settings.idleTimeout
        trustedProxies = Set(try settings.trustedProxies.map { text in
            guard let address = IPAddress(text) else {
                throw ConfigurationError("a trusted proxy must be an IP address such as 10.0.0.2 or fd00::2, not '\(text)'")
            }
            return address
        })
    }
}
