import FoundationEssentials
import NotibaseCore

/// The OAuth 2.0 access token of one service account: an RS256 JWT assertion exchanged at the
/// token endpoint, cached until shortly before it expires. Concurrent callers share one fetch.
actor FCMAccessTokenCache {
    /// A bearer token and when it stops being used.
    struct AccessToken: Sendable, Equatable {
        var value: String
        var usableUntil: Date
    }

    /// Why no token could be had: the credentials (fail loudly) or the endpoint (try later).
    struct Failure: Error, Sendable {
        var credentialsRejected: Bool
        var explanation: String
    }

    private struct Assertion: Encodable {
        var iss: String
        var scope: String
        var aud: String
        var iat: Int
        var exp: Int
    }

    private struct TokenAnswer: Decodable {
        var access_token: String?
        var expires_in: Double?
        var error: String?
        var error_description: String?
    }

    static let scope = "https://www.googleapis.com/auth/firebase.messaging"

    private let credentials: FCMCredentials
    private let tokenURL: String
    private let client: HTTP2Client
    private let configuration: FCMSenderConfiguration
    private var key: SigningKey?
    private var current: AccessToken?
    private var fetching: Task<AccessToken, any Error>?

    init(credentials: FCMCredentials, client: HTTP2Client, configuration: FCMSenderConfiguration) {
        self.credentials = credentials
        tokenURL = configuration.tokenURL ?? credentials.tokenURI
        self.client = client
        self.configuration = configuration
    }

    /// The token to send with now: the cached one while usable, else a fresh one.
    func token() async throws(Failure) -> AccessToken {
        if let current, configuration.clock.now() < current.usableUntil { return current }
        return try await fetch()
    }

    /// A replacement for a token FCM refused, unless another caller already replaced it.
    func replace(_ refused: AccessToken) async throws(Failure) -> AccessToken {
        if let current, current != refused, configuration.clock.now() < current.usableUntil { return current }
        current = nil
        return try await fetch()
    }

    private func fetch() async throws(Failure) -> AccessToken {
        let task: Task<AccessToken, any Error>
        if let fetching {
            task = fetching
        } else {
            let request: HTTP2Request
            do {
                request = try tokenRequest()
            } catch {
                throw Failure(credentialsRejected: true, explanation: "The service account's private key cannot be used: \(error)")
            }
            let client = client
            let clock = configuration.clock
            let margin = configuration.accessTokenMargin
            task = Task { try await Self.exchange(request, client: client, clock: clock, margin: margin) }
            fetching = task
        }
        defer { if fetching == task { fetching = nil } }
        do {
            let token = try await task.value
            current = token
            return token
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(credentialsRejected: false, explanation: "\(error)")
        }
    }

    private func tokenRequest() throws -> HTTP2Request {
        if key == nil { key = try SigningKey(pem: credentials.privateKeyPEM, algorithm: .rs256) }
        let now = Int(configuration.clock.now().timeIntervalSince1970)
        let assertion = try JSONWebToken.sign(
            claims: Assertion(iss: credentials.clientEmail, scope: Self.scope, aud: tokenURL, iat: now, exp: now + 3600),
            keyID: nil, type: "JWT", with: key!
        )
        let body = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + assertion
        return HTTP2Request(url: tokenURL, headers: [HTTPHeader("content-type", "application/x-www-form-urlencoded")],
                            body: Array(body.utf8), timeout: configuration.requestTimeout)
    }

    private static func exchange(_ request: HTTP2Request, client: HTTP2Client, clock: WallClock, margin: Duration) async throws -> AccessToken {
        let response: HTTP2Response
        switch await client.send(request) {
        case .success(let answer): response = answer
        case .failure(let error):
            throw Failure(credentialsRejected: false, explanation: "Could not reach Google's token endpoint (\(error.kind.rawValue): \(error.message)); retried later.")
        }
        let answer = try? JSONDecoder().decode(TokenAnswer.self, from: Data(response.body))
        guard response.status == 200, let value = answer?.access_token, let lifetime = answer?.expires_in else {
            if (400..<500).contains(response.status) {
                let reason = [answer?.error, answer?.error_description].compactMap { $0 }.joined(separator: ": ")
                throw Failure(credentialsRejected: true, explanation: "Google refused the service account (\(response.status) \(reason)): check the client email, the key and that the key is not deleted.")
            }
            throw Failure(credentialsRejected: false, explanation: "Google's token endpoint answered \(response.status); retried later.")
        }
        let margin = min(Double(margin.components.seconds), lifetime / 2)
        return AccessToken(value: value, usableUntil: clock.now().addingTimeInterval(lifetime - margin))
    }
}
