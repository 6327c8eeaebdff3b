package import NotibaseDomain
/// How many connections the HTTP server holds, from whom, and for how long a request may take to
/// arrive. Every deadline is a total, counted from a fixed point: sending a byte now and then
/// does not extend it (libmicrohttpd's own timeout, ``idle``, is reset by every byte).
package struct ConnectionLimits: Sendable {
    /// The most connections at once.
    package var total = 10_000
    /// The most connections from one address (IPv4 whole, IPv6 by /64); trusted proxies are
    /// counted only in ``total``. Also the most requests in progress from one client address.
    package var perAddress = 256
    /// Of ``total``, the connections kept for addresses that hold none yet: once fewer than this
    /// are free, an address that already has a connection gets no other.
    package var reserved = 1_000
    /// A request's head (request line and headers) must be complete this long after the
    /// connection opened, or, on a kept-alive connection, after its request line arrived.
    package var head: Duration = .seconds(10)
    /// A request's body must be complete this long after its head.
    package var body: Duration = .seconds(30)
    /// A kept-alive connection's next request line must arrive this long after the last answer.
    package var idle: Duration = .seconds(60)
    /// Proxies whose `X-Forwarded-For` names the client for the per-address request limit.
    package var trustedProxies: Set<IPAddress> = []

    package init() {}
}
