import FoundationEssentials
import NotibaseCore
import Synchronization

/// Sends data-only messages to Android apps through FCM HTTP v1: an OAuth access token per
/// service account (RS256 JWT assertion, cached), HTTP/2 over TLS (nghttp2 and OpenSSL), and every documented
/// error mapped by `FCMAnswerTable`.
///
/// ```swift
/// let sender = FCMSender()                        // Google's hosts, the system's CAs
/// let outcomes = await sender.send(pushes)        // one outcome per push, in order
/// ```
package final class FCMSender: Sender {
    private struct Key: Hashable, Sendable {
        var appID: String
        var revision: Int
    }

    private struct State {
        var tokens: [Key: FCMAccessTokenCache] = [:]
        var isShutDown = false
    }

    private let configuration: FCMSenderConfiguration
    private let client: HTTP2Client
    private let state = Mutex(State())

    /// A sender; nothing connects until the first push.
    package init(configuration: FCMSenderConfiguration = FCMSenderConfiguration()) {
        self.configuration = configuration
        client = HTTP2Client(configuration: HTTP2ClientConfiguration(
            maxConnectionsPerHost: configuration.maxConnectionsPerHost,
            caFile: configuration.caFile,
            connectTimeout: configuration.connectTimeout,
            pingInterval: configuration.pingInterval
        ))
    }

    package func send(_ pushes: [Push]) async -> [SendOutcome] {
        await GroupedSend.run(pushes, provider: "FCM", extract: { push -> (key: Key, request: FCMRequest, credentials: FCMCredentials)? in
            guard case .fcm(let request) = push.request, case .fcm(let credentials) = push.credentials else { return nil }
            return (Key(appID: credentials.appID, revision: credentials.revision), request, credentials)
        }, send: { [self] key, credentials, requests in
            guard let tokens = tokenCache(for: key, credentials: credentials) else { return nil }
            return await send(requests, projectID: credentials.projectID, tokens: tokens)
        })
    }

    /// Fails what is in flight as `retry` and closes the connections; later pushes get `retry`.
    package func shutdown() async {
        state.withLock { state in
            state.isShutDown = true
            state.tokens = [:]
        }
        await client.shutdown()
    }

    private func tokenCache(for key: Key, credentials: FCMCredentials) -> FCMAccessTokenCache? {
        state.withLock { state in
            guard !state.isShutDown else { return nil }
            if let cache = state.tokens[key] { return cache }
            for stale in state.tokens.keys where stale.appID == key.appID && stale.revision < key.revision {
                state.tokens[stale] = nil
            }
            let cache = FCMAccessTokenCache(credentials: credentials, client: client, configuration: configuration)
            state.tokens[key] = cache
            return cache
        }
    }

    /// Sends one app's messages: resends those whose connection was lost, and those refused with
    /// 401 once with a new access token.
    private func send(_ requests: [FCMRequest], projectID: String, tokens: FCMAccessTokenCache) async -> [SendOutcome] {
        var attempts = BatchAttempts(count: requests.count, maxResends: configuration.resendsAfterConnectionLoss)
        let url = configuration.sendURL(projectID: projectID)
        var token: FCMAccessTokenCache.AccessToken?
        var renew = false
        while !attempts.isFinished {
            do {
                if let refused = token, renew { token = try await tokens.replace(refused) } else if token == nil { token = try await tokens.token() }
            } catch {
                attempts.finishPending(with: SendOutcome(disposition: error.credentialsRejected ? .credentialsRejected : .retry, explanation: error.explanation))
                break
            }
            let round = attempts.pending
            let headers = [HTTPHeader("authorization", "Bearer " + token!.value), HTTPHeader("content-type", "application/json; charset=UTF-8")]
            let results = await client.send(round.map {
                HTTP2Request(url: url, headers: headers, body: requests[$0].body, timeout: configuration.requestTimeout)
            })
            for (index, result) in zip(round, results) {
                switch result {
                case .success(let response):
                    let (action, outcome) = answer(response)
                    attempts.answered(index, action, outcome: outcome)
                case .failure(let error):
                    attempts.failed(index, error) { error, resends in
                        TransportOutcome.retry(after: error, provider: "FCM", timeout: configuration.requestTimeout, resends: resends)
                    }
                }
            }
            renew = attempts.endRound()
        }
        return attempts.results
    }

    /// The table's action for FCM's answer, and the outcome it ends in.
    private func answer(_ response: HTTP2Response) -> (ProviderAction, SendOutcome) {
        let body = FCMErrorBody.parse(response.body)
        let row = FCMAnswerTable.row(status: response.status, code: body.code, aboutRegistrationToken: body.isAboutRegistrationToken)
        guard row.action != .sent else {
            return (.sent, SendOutcome(disposition: .sent, providerID: body.name, status: response.status))
        }
        var retryAfter = RetryAfter.parse(response.header("retry-after"), now: configuration.clock.now())
        if row.action == .retryAfterQuota { retryAfter = max(retryAfter ?? .zero, configuration.quotaBackoffFloor) }
        let outcome = SendOutcome(
            disposition: row.action.disposition,
            status: response.status,
            providerReason: body.reason,
            explanation: row.explanation,
            retryAfter: row.action.disposition == .retry ? retryAfter : nil
        )
        return (row.action, outcome)
    }
}
