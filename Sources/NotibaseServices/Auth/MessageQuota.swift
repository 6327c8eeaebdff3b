import NotibaseDomain
import NotibaseStore
import NotibaseWebhooks
/// How many messages each app may create a minute (`--app-messages-per-minute`): a token bucket
/// per app ID that refills continuously, holding a minute's worth. Keyed by the app, never by the
/// key, so rotating a key does not reset it. In memory: each node counts its own.
package final class MessageQuota: Sendable {
    /// Messages a minute per app; 0 is no limit.
    package let perMinute: Int
    private let buckets: TokenBuckets<String>

    package init(perMinute: Int, now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.perMinute = perMinute
        buckets = TokenBuckets(rate: Double(perMinute) / 60, burst: Double(perMinute), now: now)
    }

    /// Runs `create` with one message charged to `appID`'s quota; refuses (`quota_exceeded`, too many)
    /// with the wait when the app has none left. The charge is given back when `create` throws or
    /// answers with a message stored before (an idempotent replay creates nothing).
    package func charging<Value>(_ appID: String, _ create: () async throws -> (Value, replayed: Bool)) async throws -> (Value, replayed: Bool) {
        guard perMinute > 0 else { return try await create() }
        if let seconds = buckets.take(appID) {
            throw Refusal(
                kind: .tooMany(limit: "messagesPerMinute", retryAfter: seconds), code: "quota_exceeded",
                message: "this app is over its limit of \(perMinute) messages a minute; retry after \(seconds) s", field: nil)
        }
        do {
            let result = try await create()
            if result.replayed { buckets.giveBack(appID) }
            return result
        } catch {
            buckets.giveBack(appID)
            throw error
        }
    }
}
