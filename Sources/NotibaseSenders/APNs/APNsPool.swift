import NotibaseCore

/// The connections and provider token of one app in one environment (at one credential
/// revision): an `HTTP2Client` capped at a few multiplexed connections, and the token cache.
final class APNsPool: Sendable {
    /// What a pool is shared by.
    struct Key: Hashable, Sendable {
        var appID: String
        var environment: APNsEnvironment
        var revision: Int
    }

    private let credentials: APNsCredentials
    private let configuration: APNsSenderConfiguration
    private let client: HTTP2Client
    private let tokens: APNsTokenCache?
    private let baseURL: String

    init(credentials: APNsCredentials, configuration: APNsSenderConfiguration) {
        self.credentials = credentials
        self.configuration = configuration
        baseURL = configuration.baseURL(for: credentials.environment)
        var certificate: HTTP2ClientConfiguration.ClientCertificate?
        switch credentials.authentication {
        case .token(let privateKeyPEM, let keyID, let teamID):
            tokens = APNsTokenCache(privateKeyPEM: privateKeyPEM, keyID: keyID, teamID: teamID, policy: configuration.tokenPolicy, clock: configuration.clock)
        case .certificate(let certificatePEM, let privateKeyPEM):
            tokens = nil
            certificate = .init(certificatePEM: certificatePEM, privateKeyPEM: privateKeyPEM)
        }
        client = HTTP2Client(configuration: HTTP2ClientConfiguration(
            maxConnectionsPerHost: configuration.maxConnectionsPerApp,
            maxStreamsPerConnection: configuration.maxStreamsPerConnection,
            caFile: configuration.caFile,
            clientCertificate: certificate,
            connectTimeout: configuration.connectTimeout,
            maxIdleTime: configuration.maxIdleTime,
            pingInterval: configuration.pingInterval
        ))
    }

    /// Sends the pushes and returns an outcome for each, in order. Pushes whose connection was
    /// lost are resent at once (up to `resendsAfterConnectionLoss` times); a refused provider
    /// token is replaced and its pushes resent once.
    func send(_ requests: [APNsRequest]) async -> [SendOutcome] {
        var outcomes = [SendOutcome?](repeating: nil, count: requests.count)
        var resends = [Int](repeating: 0, count: requests.count)
        var tokenRetried = [Bool](repeating: false, count: requests.count)
        var pending = Array(requests.indices)
        var token: APNsTokenCache.Token?
        while !pending.isEmpty {
            if let tokens, token == nil {
                do {
                    token = try await tokens.token()
                } catch {
                    for index in pending { outcomes[index] = Self.unusableKey(error) }
                    break
                }
            }
            let results = await client.send(pending.map { httpRequest(for: requests[$0], token: token) })
            var next: [Int] = []
            var tokenRefused = false
            for (index, result) in zip(pending, results) {
                switch result {
                case .success(let response):
                    let body = response.status == 200 ? APNsErrorBody() : APNsErrorBody.parse(response.body)
                    let row = APNsAnswerTable.row(status: response.status, reason: body.reason.map(APNsReason.init(rawValue:)))
                    let mayRetry = !tokenRetried[index] && (row.action == .resendOnce || (row.action == .refreshTokenOnce && tokens != nil))
                    if mayRetry {
                        tokenRetried[index] = true
                        tokenRefused = tokenRefused || row.action == .refreshTokenOnce
                        next.append(index)
                    } else {
                        outcomes[index] = Self.outcome(row, response: response, body: body, request: requests[index], retried: tokenRetried[index])
                    }
                case .failure(let error) where error.kind == .connectionLost && resends[index] < configuration.resendsAfterConnectionLoss:
                    resends[index] += 1
                    next.append(index)
                case .failure(let error):
                    outcomes[index] = transportOutcome(error, resends: resends[index])
                }
            }
            if tokenRefused, let tokens, let refused = token {
                do {
                    token = try await tokens.replace(refused)
                } catch {
                    for index in next { outcomes[index] = Self.unusableKey(error) }
                    break
                }
            }
            pending = next
        }
        return outcomes.map { $0 ?? TransportOutcome.senderShutDown(provider: "APNs") }
    }

    func shutdown() async {
        await client.shutdown()
    }

    private func httpRequest(for request: APNsRequest, token: APNsTokenCache.Token?) -> HTTP2Request {
        var headers = request.headers
        if request.header("apns-topic") == nil { headers.append(HTTPHeader("apns-topic", credentials.bundleID)) }
        if let token { headers.append(HTTPHeader("authorization", "bearer " + token.value)) }
        return HTTP2Request(url: baseURL + request.path, headers: headers, body: request.body, timeout: configuration.requestTimeout)
    }

    private static func outcome(_ row: APNsAnswerTable.Row, response: HTTP2Response, body: APNsErrorBody, request: APNsRequest, retried: Bool) -> SendOutcome {
        let apnsID = response.header("apns-id") ?? request.header("apns-id")
        if row.action == .sent { return SendOutcome(disposition: .sent, providerID: apnsID, status: response.status) }
        var explanation = row.explanation
        if retried && row.action.disposition == .credentialsRejected && (row.action == .refreshTokenOnce || row.action == .resendOnce) {
            explanation += " APNs refused it again after a retry."
        }
        return SendOutcome(
            disposition: row.action.disposition,
            providerID: apnsID,
            status: response.status,
            providerReason: body.reason,
            explanation: explanation,
            tokenInvalidSince: body.invalidSince
        )
    }

    private func transportOutcome(_ error: TransportError, resends: Int) -> SendOutcome {
        let clientCertificateProblem = tokens == nil && (error.code == 58 || error.code == 83) // CURLE_SSL_CERTPROBLEM, CURLE_SSL_CLIENTCERT
        if clientCertificateProblem {
            return SendOutcome(disposition: .credentialsRejected, explanation: "The app's APNs client certificate or its key could not be used (\(error.message)).")
        }
        return TransportOutcome.retry(after: error, provider: "APNs", timeout: configuration.requestTimeout, resends: resends)
    }

    private static func unusableKey(_ error: any Error) -> SendOutcome {
        SendOutcome(disposition: .credentialsRejected, explanation: "The app's APNs signing key cannot be used: \(error)")
    }
}
