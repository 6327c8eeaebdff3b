import Synchronization

/// Token buckets, one per key: each holds up to `burst` tokens and refills continuously at `rate`
/// tokens a second. In memory, so per node.
final class TokenBuckets<Key: Hashable & Sendable>: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    /// Tokens a second, and the most a bucket holds.
    let rate: Double
    let burst: Double
    private let buckets = Mutex<[Key: Bucket]>([:])
    private let now: @Sendable () -> ContinuousClock.Instant

    init(rate: Double, burst: Double, now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.rate = rate
        self.burst = burst
        self.now = now
    }

    /// Takes one token from `key`'s bucket: nil when it had one, else the whole seconds (at least
    /// 1) until it will.
    func take(_ key: Key) -> Int? {
        let wait: Double? = update(key) { bucket in
            guard bucket.tokens < 1 else {
                bucket.tokens -= 1
                return nil
            }
            return (1 - bucket.tokens) / rate
        }
        return wait.map { max(1, Int($0.rounded(.up))) }
    }

    /// Puts back a token taken for something that did not happen after all.
    func giveBack(_ key: Key) {
        update(key) { $0.tokens = min(burst, $0.tokens + 1) }
    }

    /// Refills `key`'s bucket for the time since it was last used, then changes it.
    private func update<Value>(_ key: Key, _ change: (inout Bucket) -> Value) -> Value {
        let now = now()
        return buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + max(0, (now - bucket.updated).seconds) * rate)
            bucket.updated = now
            defer { buckets[key] = bucket }
            return change(&bucket)
        }
    }
}
