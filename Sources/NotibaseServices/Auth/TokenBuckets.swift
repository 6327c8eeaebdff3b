import Synchronization
import NotibaseDomain
import NotibaseStore
import NotibaseWebhooks

/// Token buckets, one per key: each holds up to `burst` tokens and refills continuously at `rate`
/// tokens a second. In memory, so per node. A full bucket is the same as none, so full ones are
/// forgotten whenever the keys outgrow ``pruneAt``: many keys (client addresses) cost memory only
/// while their buckets are in use.
package final class TokenBuckets<Key: Hashable & Sendable>: Sendable {
    private struct Bucket {
        package var tokens: Double
        package var updated: ContinuousClock.Instant
    }

    /// Tokens a second, and the most a bucket holds.
    package let rate: Double
    package let burst: Double
    private let buckets = Mutex<Held>(Held())
    /// How many keys are held before full buckets are looked for.
    package static var pruneAt: Int { 10_000 }

    private struct Held {
        package var buckets: [Key: Bucket] = [:]
        /// The count at which full buckets are next looked for: twice what a pruning left, so
        /// pruning costs a constant per key on average.
        package var pruneAt = TokenBuckets.pruneAt
    }
    private let now: @Sendable () -> ContinuousClock.Instant

    package init(rate: Double, burst: Double, now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.rate = rate
        self.burst = burst
        self.now = now
    }

    /// Takes one token from `key`'s bucket: nil when it had one, else the whole seconds (at least
    /// 1) until it will.
    package func take(_ key: Key) -> Int? {
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
    package func giveBack(_ key: Key) {
        update(key) { $0.tokens = min(burst, $0.tokens + 1) }
    }

    /// Refills `key`'s bucket for the time since it was last used, then changes it.
    private func update<Value>(_ key: Key, _ change: (inout Bucket) -> Value) -> Value {
        let now = now()
        return buckets.withLock { held in
            if held.buckets.count >= held.pruneAt { prune(&held, now: now) }
            var bucket = held.buckets[key] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = refilled(bucket, now: now)
            bucket.updated = now
            defer { held.buckets[key] = bucket }
            return change(&bucket)
        }
    }

    /// How many keys have a bucket held.
    package var count: Int { buckets.withLock { $0.buckets.count } }

    private func refilled(_ bucket: Bucket, now: ContinuousClock.Instant) -> Double {
        min(burst, bucket.tokens + max(0, (now - bucket.updated).seconds) * rate)
    }

    private func prune(_ held: inout Held, now: ContinuousClock.Instant) {
        held.buckets = held.buckets.filter { refilled($0.value, now: now) < burst }
        held.pruneAt = max(Self.pruneAt, held.buckets.count * 2)
    }
}
