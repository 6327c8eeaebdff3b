import struct FoundationEssentials.Date

/// When an APNs provider token (JWT) may be reused and when it must be replaced.
///
/// APNs refuses tokens older than an hour (`ExpiredProviderToken`) and tokens replaced more often
/// than every 20 minutes (`TooManyProviderTokenUpdates`), so a token is reused until
/// `refreshAfter` (between 20 and 60 minutes) and then replaced.
package struct ProviderTokenPolicy: Sendable, Hashable {
    /// The shortest reuse APNs tolerates.
    static let minimumAge: Duration = .seconds(20 * 60)
    /// The age at which APNs refuses a token.
    static let maximumAge: Duration = .seconds(60 * 60)

    /// The age at which the token is replaced, clamped to 20 minutes …< 60 minutes.
    let refreshAfter: Duration

    /// A policy refreshing after `refreshAfter` (default 50 minutes), clamped into APNs's window.
    init(refreshAfter: Duration = .seconds(50 * 60)) {
        self.refreshAfter = min(max(refreshAfter, Self.minimumAge), Self.maximumAge - .seconds(60))
    }

    /// Whether a token issued at `issuedAt` may still be used at `now`. A clock that moved back by
    /// more than a minute also retires the token (its `iat` would lie in the future).
    func canReuse(issuedAt: Date, at now: Date) -> Bool {
        let age = now.timeIntervalSince(issuedAt)
        return age >= -60 && age < Double(refreshAfter.components.seconds)
    }
}
