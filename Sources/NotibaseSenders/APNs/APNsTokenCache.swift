import struct FoundationEssentials.Date

/// The provider token (ES256 JWT) of one APNs key: made on first use, reused, and replaced by the
/// `ProviderTokenPolicy` or when APNs refuses it.
actor APNsTokenCache {
    /// A signed token and when it was made.
    struct Token: Sendable, Equatable {
        var value: String
        var issuedAt: Date
        /// Counts replacements, so that many pushes refused with one token cause one new token.
        var generation: Int
    }

    private struct Claims: Encodable {
        var iss: String
        var iat: Int
    }

    private let key: Result<SigningKey, SigningError>
    private let keyID: String
    private let teamID: String
    private let policy: ProviderTokenPolicy
    private let clock: WallClock
    private var current: Token?
    private var generation = 0

    /// A cache for the key in `privateKeyPEM` (a `.p8` file's text). An unreadable key is reported
    /// by `token()`.
    init(privateKeyPEM: String, keyID: String, teamID: String, policy: ProviderTokenPolicy, clock: WallClock) {
        do {
            key = .success(try SigningKey(pem: privateKeyPEM, algorithm: .es256))
        } catch let error as SigningError {
            key = .failure(error)
        } catch {
            key = .failure(.unreadableKey(nil))
        }
        self.keyID = keyID
        self.teamID = teamID
        self.policy = policy
        self.clock = clock
    }

    /// The token to send now: the cached one while the policy allows, else a new one.
    func token() throws(SigningError) -> Token {
        let now = clock.now()
        if let current, policy.canReuse(issuedAt: current.issuedAt, at: now) { return current }
        return try mint(at: now)
    }

    /// A replacement for a token APNs refused; when another push already replaced it, that
    /// replacement is returned instead of a new one.
    func replace(_ refused: Token) throws(SigningError) -> Token {
        if let current, current.generation != refused.generation { return current }
        return try mint(at: clock.now())
    }

    private func mint(at now: Date) throws(SigningError) -> Token {
        let key = try key.get()
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let value: String
        do {
            value = try JSONWebToken.sign(claims: Claims(iss: teamID, iat: Int(issuedAt.timeIntervalSince1970)), keyID: keyID, with: key)
        } catch let error as SigningError {
            throw error
        } catch {
            throw .signingFailed(step: "claims encoding", nil)
        }
        generation += 1
        let token = Token(value: value, issuedAt: issuedAt, generation: generation)
        current = token
        return token
    }
}
