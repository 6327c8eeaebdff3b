/// How the FCM sender reaches FCM and Google's OAuth endpoint.
package struct FCMSenderConfiguration: Sendable {
    /// FCM's origin, `https://fcm.googleapis.com`, or a test peer.
    package var baseURL: String
    /// The OAuth token endpoint, instead of each service account's `token_uri` (test peers).
    package var tokenURL: String?
    /// A PEM file of certificate authorities to trust instead of the system's (test peers).
    package var caFile: String?
    /// The most connections to each host (FCM, the token endpoint).
    var maxConnectionsPerHost: Int
    /// The limit for one message or token request, from queueing to the answer.
    package var requestTimeout: Duration
    /// The limit for opening a connection, TLS included.
    var connectTimeout: Duration
    /// How often an idle connection is PINGed (HTTP/2 PING, and TCP keep-alive); nil turns it off.
    var pingInterval: Duration?
    /// An access token is replaced this long before Google says it expires.
    var accessTokenMargin: Duration
    /// The shortest wait after `QUOTA_EXCEEDED` (FCM asks for at least a minute).
    var quotaBackoffFloor: Duration
    /// How many times a message whose connection was lost is resent at once before `retry`.
    var resendsAfterConnectionLoss: Int
    /// The clock the OAuth assertion (`iat`, `exp`) and token expiry use.
    package var clock: WallClock

    /// A configuration; the defaults talk to Google.
    package init(
        baseURL: String = "https://fcm.googleapis.com",
        tokenURL: String? = nil,
        caFile: String? = nil,
        maxConnectionsPerHost: Int = 2,
        requestTimeout: Duration = .seconds(15),
        connectTimeout: Duration = .seconds(10),
        pingInterval: Duration? = .seconds(60),
        accessTokenMargin: Duration = .seconds(300),
        quotaBackoffFloor: Duration = .seconds(60),
        resendsAfterConnectionLoss: Int = 2,
        clock: WallClock = .system
    ) {
        self.baseURL = baseURL
        self.tokenURL = tokenURL
        self.caFile = caFile
        self.maxConnectionsPerHost = maxConnectionsPerHost
        self.requestTimeout = requestTimeout
        self.connectTimeout = connectTimeout
        self.pingInterval = pingInterval
        self.accessTokenMargin = accessTokenMargin
        self.quotaBackoffFloor = quotaBackoffFloor
        self.resendsAfterConnectionLoss = resendsAfterConnectionLoss
        self.clock = clock
    }

    /// The `messages:send` URL of a Firebase project.
    func sendURL(projectID: String) -> String {
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        return base + "/v1/projects/" + projectID + "/messages:send"
    }
}
