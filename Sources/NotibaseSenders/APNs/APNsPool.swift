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
            eventLoops: configuration.maxConnectionsPerApp,
            maxRequestsInFlight: configuration.maxPushesInFlight,
            caFile: configuration.caFile,
            clientCertificate: certificate,
            connectTimeout: configuration.connectTimeout,
            maxIdleTime: configuration.maxIdleTime,
            pingInterval: configuration.pingInterval
        ))
    }

    /// Sends the pushes and returns an outcome for each, in order. Pushes whose connection was
    /// lost are resent at once (up to `resendsAfterConnectionLoss` times); a refused provider
    /// token is replaced and its pushes resent once. With a certificate, a push of a type Apple
    /// takes only with a token (`liveactivity`) is refused without being sent.
    func send(_ requests: [APNsRequest]) async -> [SendOutcome] {
        guard tokens == nil, requests.contains(where: TokenOnlyPushTypes.contains) else { return await sendAll(requests) }
        let allowed = requests.indices.filter { !TokenOnlyPushTypes.contains(requests[$0]) }
        var outcomes = Array(repeating: TokenOnlyPushTypes.certificateRefusal, count: requests.count)
        for (index, outcome) in zip(allowed, await sendAll(allowed.map { requests[$0] })) { outcomes[index] = outcome }
        return outcomes
    }

    private func sendAll(_ requests: [APNsRequest]) async -> [SendOutcome] {
        guard !requests.isEmpty else { return [] }
        var attempts = BatchAttempts(count: requests.count, maxResends: configuration.resendsAfterConnectionLoss)
        var token: APNsTokenCache.Token?
        var renew = false
        while !attempts.isFinished {
            if let tokens {
                do {
                    if let refused = token, renew { token = try await tokens.replace(refused) } else if token == nil { token = try await tokens.token() }
                } catch {
                    attempts.finishPending(with: Self.unusableKey(error))
                    break
                }
            }
            let round = attempts.pending
            let authorization = token.map { HTTPHeader("authorization", "bearer " + $0.value) }
            let results = await client.send(round.map { httpRequest(for: requests[$0], authorization: authorization) })
            for (index, result) in zip(round, results) {
                switch result {
                case .success(let response):
                    let (action, outcome) = answer(response, to: requests[index])
                    attempts.answered(index, action, outcome: outcome)
                case .failure(let error):
                    attempts.failed(index, error, outcome: transportOutcome)
                }
            }
            renew = attempts.endRound()
        }
        return attempts.results
    }

    func shutdown() async {
        await client.shutdown()
    }

    private func httpRequest(for request: APNsRequest, authorization: HTTPHeader?) -> HTTP2Request {
        var headers = request.headers
        headers.reserveCapacity(headers.count + 2)
        if request.header("apns-topic") == nil {
            headers.append(HTTPHeader("apns-topic", TokenOnlyPushTypes.topic(for: request, bundleID: credentials.bundleID)))
        }
        if let authorization { headers.append(authorization) }
        return HTTP2Request(url: baseURL + request.path, headers: headers, body: request.body, timeout: configuration.requestTimeout)
    }

    /// The table's action for APNs's answer to this push, and the outcome it ends in.
    private func answer(_ response: HTTP2Response, to request: APNsRequest) -> (ProviderAction, SendOutcome) {
        let apnsID = response.header("apns-id") ?? request.header("apns-id")
        guard response.status != 200 else { return (.sent, SendOutcome(disposition: .sent, providerID: apnsID, status: 200)) }
        let body = APNsErrorBody.parse(response.body)
        let row = APNsAnswerTable.row(status: response.status, reason: body.reason.map(APNsReason.init(rawValue:)))
        var outcome = SendOutcome(
            disposition: row.action.disposition,
            providerID: apnsID,
            status: response.status,
            providerReason: body.reason,
            explanation: row.explanation,
            tokenInvalidSince: body.invalidSince
        )
        if row.reason == .badDeviceToken {
            outcome.explanation? += " It was sent to the \(credentials.environment.rawValue) environment."
        }
        switch row.action {
        case .renewCredentialOnce:
            // A client certificate has no token to renew: its refusal stands.
            guard tokens != nil else { return (.credentialsRejected, outcome) }
            outcome.explanation? += " APNs refused a new token too."
        case .resendOnce:
            outcome.explanation? += " APNs refused it again when resent."
        case .sent, .retry, .retryAfterQuota, .deactivateDevice, .failed, .credentialsRejected:
            break
        }
        return (row.action, outcome)
    }

    private func transportOutcome(_ error: TransportError, resends: Int) -> SendOutcome {
        if tokens == nil && error.cause == .clientCertificate {
            return SendOutcome(disposition: .credentialsRejected, explanation: "The app's APNs client certificate or its key could not be used (\(error.message)).")
        }
        return TransportOutcome.retry(after: error, provider: "APNs", timeout: configuration.requestTimeout, resends: resends)
    }

    private static func unusableKey(_ error: any Error) -> SendOutcome {
        SendOutcome(disposition: .credentialsRejected, explanation: "The app's APNs signing key cannot be used: \(error)")
    }
}
