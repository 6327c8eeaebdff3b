package import NotibaseDomain
import NotibaseStore
import NotibaseSQLite
import NotibasePostgres
import NotibaseHTTP
import NotibaseOutbound
import NotibaseWebhooks
package import NotibaseServices
import NotibaseAPI
import NotibaseDelivery
/// Everything `notibase serve` can be told. The defaults start a working server with no settings.
package struct ServerConfiguration: Sendable {
    /// The address to listen on (`127.0.0.1`, `0.0.0.0`, `::`).
    package var host = "127.0.0.1"
    /// The TCP port; 0 picks a free one.
    package var port = 8080
    /// Where the database (`notibase.sqlite`) and, unless a secret key is given, `secret.key` live.
    package var dataDirectory = "data"
    /// A PostgreSQL database (`postgres://user:password@host:port/database`) instead of SQLite in
    /// the data directory: for several nodes on one database.
    package var databaseURL: String?
    /// Connections each node keeps to PostgreSQL.
    package var databasePoolSize = 8
    /// PEM files for HTTPS; both or neither.
    package var tlsCertificatePath: String?
    package var tlsKeyPath: String?
    /// The key that encrypts provider credentials at rest: 32 bytes in base64. When nil, the
    /// server uses `secret.key` in the data directory, creating it on first start.
    package var secretKey: String?
    /// An admin key (`nb_admin_…`) to use instead of a generated one; replaces the stored admin key
    /// (how to recover a lost one).
    package var adminKey: String?
    package var limits = Limits()
    /// Connection limits, request deadlines and shutdown.
    package var connections = Connections()
    /// When set, `GET /metrics` needs `Authorization: Bearer <this>`.
    package var metricsToken: String?
    /// How often the queue's depth is measured for `/metrics` (not a flag: tests shorten it).
    package var queueDepthInterval: Duration = QueueDepthProbe.interval
    /// Queue settings.
    package var delivery = Delivery()
    /// Log level and whether every request is logged.
    package var logLevel: Logger.Level = .info
    package var accessLog = true
    /// Whether webhook endpoints may be `http` and resolve to loopback and private addresses
    /// (`--webhook-allow-insecure`): for development and tests only, never in production.
    package var webhookAllowInsecure = false

    /// Request limits: the services' (``ServiceLimits``).
    package typealias Limits = ServiceLimits

    /// Connection limits and request deadlines (docs/server.md, "Connections"). Each deadline is
    /// a total from a fixed point, not an idle time a trickle of bytes resets.
    package struct Connections: Sendable {
        /// The most connections at once.
        package var total = 10_000
        /// The most connections from one address (IPv4 whole, IPv6 by /64; trusted proxies
        /// excepted), and the most requests in progress from one client address.
        package var perAddress = 256
        /// Of `total`, the connections kept for addresses that hold none yet.
        package var reserved = 1_000
        /// The time from a connection's opening (or, kept alive, its next request line) to its
        /// request head being complete.
        package var headTimeout: Duration = .seconds(10)
        /// The time from a request's head to its body being complete.
        package var bodyTimeout: Duration = .seconds(30)
        /// How long a kept-alive connection waits for its next request line.
        package var idleTimeout: Duration = .seconds(60)
        /// Addresses of reverse proxies whose `X-Forwarded-For` names the client (off when empty).
        package var trustedProxies: [String] = []
        /// The bytes of request bodies held at once, across every connection.
        package var bodiesInFlightBytes = 128 << 20
        /// How long a shutdown lets requests in progress finish before answering the rest 503.
        package var shutdownGrace: Duration = .seconds(10)
        package init() {}
    }

    /// Queue settings.
    package struct Delivery: Sendable {
        /// Concurrent worker loops.
        package var workers = 2
        /// Deliveries claimed per batch.
        package var batchSize = 1_000
        /// How long a claim lasts before another worker may take the delivery.
        package var lease: Duration = .seconds(30)
        /// Devices per fan-out transaction.
        package var fanOutBatchSize = 5_000
        /// How often idle workers and fan-out look for work. Work this node makes (a message
        /// posted here, a batch it fanned out) wakes them at once whatever this is.
        package var pollInterval: Duration = .milliseconds(25)
        /// How often they look at least, on a database that announces other nodes' work
        /// (PostgreSQL's LISTEN/NOTIFY): what is due later (a scheduled message, a retry) is seen
        /// within this; what another node makes wakes them at once.
        package static let listeningPollInterval: Duration = .milliseconds(250)
        /// How long a finished message's history (deliveries, events, receipts) is kept; nil
        /// keeps it forever.
        package var retention: Duration? = .seconds(30 * 86_400)
        package init() {}
    }

    package init() {}
}
