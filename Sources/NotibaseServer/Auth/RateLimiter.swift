import Synchronization

/// A token bucket per key: `rate` requests a second on average, bursts up to `burst`.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private let limits: [KeyKind: (rate: Double, burst: Double)]
    private let buckets = Mutex<[UInt64: Bucket]>([:])
    private let now: @Sendable () -> ContinuousClock.Instant

    /// `rates` gives requests per second per key kind; 0 or absent means no limit.
    init(rates: [KeyKind: Int], now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        limits = rates.filter { $0.value > 0 }.mapValues { (Double($0), Double($0) * 2) }
        self.now = now
    }

    /// Takes one request from the caller's bucket; throws 429 with the wait when it is empty.
    func admit(_ caller: Caller) throws {
        guard let limit = limits[caller.kind] else { return }
        let now = now()
        let wait: Double? = buckets.withLock { buckets in
            var bucket = buckets[caller.keyTag] ?? Bucket(tokens: limit.burst, updated: now)
            bucket.tokens = min(limit.burst, bucket.tokens + (now - bucket.updated).seconds * limit.rate)
            bucket.updated = now
            defer { buckets[caller.keyTag] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            return (1 - bucket.tokens) / limit.rate
        }
        if let wait {
            let seconds = max(1, Int(wait.rounded(.up)))
            throw APIError(status: 429, code: "rate_limited", message: "this key is over its limit of \(Int(limit.rate)) requests a second; retry after \(seconds) s", field: nil, retryAfter: seconds)
        }
    }
}
