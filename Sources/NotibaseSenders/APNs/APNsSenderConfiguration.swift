/// How the APNs sender reaches APNs.
package struct APNsSenderConfiguration: Sendable {
    /// The production service (`https://api.push.apple.com`), or a test peer.
    package var productionURL: String
    /// The sandbox service (`https://api.sandbox.push.apple.com`), or a test peer.
    package var sandboxURL: String
    /// A PEM file of certificate authorities to trust instead of the system's (test peers).
    package var caFile: String?
    /// The most connections per app and environment; each carries up to
    /// `maxStreamsPerConnection` pushes at once.
    package var maxConnectionsPerApp: Int
    /// The most concurrent pushes per connection (APNs may allow fewer; it says so in SETTINGS).
    var maxStreamsPerConnection: Int
    /// The most pushes on streams at once per app; more wait their turn in order.
    package var maxPushesInFlight: Int
    /// The limit for one push, from queueing to APNs's answer; past it the push is `retry`.
    package var requestTimeout: Duration
    /// The limit for opening a connection, TLS included.
    var connectTimeout: Duration
    /// How often an idle connection is PINGed (HTTP/2 PING, and TCP keep-alive); nil turns it off.
    var pingInterval: Duration?
    /// How long an idle connection is kept for reuse.
    var maxIdleTime: Duration
    /// When provider tokens are replaced.
    var tokenPolicy: ProviderTokenPolicy
    /// How many times a push whose connection was lost (GOAWAY, reset) is resent at once before
    /// it is handed back as `retry`.
    var resendsAfterConnectionLoss: Int
    /// The clock provider tokens are dated with.
    package var clock: WallClock

    /// A configuration; the defaults talk to Apple.
    package init(
        productionURL: String = "https://api.push.apple.com",
        sandboxURL: String = "https://api.sandbox.push.apple.com",
        caFile: String? = nil,
        maxConnectionsPerApp: Int = 2,
        maxStreamsPerConnection: Int = 1000,
        maxPushesInFlight: Int = 256,
        requestTimeout: Duration = .seconds(15),
        connectTimeout: Duration = .seconds(10),
        pingInterval: Duration? = .seconds(60),
        maxIdleTime: Duration = .seconds(6 * 3600),
        tokenPolicy: ProviderTokenPolicy = ProviderTokenPolicy(),
        resendsAfterConnectionLoss: Int = 2,
        clock: WallClock = .system
    ) {
        self.productionURL = productionURL
        self.sandboxURL = sandboxURL
        self.caFile = caFile
        self.maxConnectionsPerApp = maxConnectionsPerApp
        self.maxStreamsPerConnection = maxStreamsPerConnection
        self.maxPushesInFlight = maxPushesInFlight
        self.requestTimeout = requestTimeout
        self.connectTimeout = connectTimeout
        self.pingInterval = pingInterval
        self.maxIdleTime = maxIdleTime
        self.tokenPolicy = tokenPolicy
        self.resendsAfterConnectionLoss = resendsAfterConnectionLoss
        self.clock = clock
    }

    /// A configuration that sends both environments to one URL (a test peer or a benchmark).
    package static func peer(url: String, caFile: String?) -> APNsSenderConfiguration {
        APNsSenderConfiguration(productionURL: url, sandboxURL: url, caFile: caFile)
    }

    func baseURL(for environment: APNsEnvironment) -> String {
        let url = environment == .production ? productionURL : sandboxURL
        return url.hasSuffix("/") ? String(url.dropLast()) : url
    }
}
