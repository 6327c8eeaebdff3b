/// A token bucket per key: `rate` requests a second on average, bursts up to twice that.
final class RateLimiter: Sendable {
    private let buckets: [KeyKind: TokenBuckets<UInt64>]

    /// `rates` gives requests per second per key kind; 0 or absent means no limit.
    init(rates: [KeyKind: Int], now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        buckets = rates.filter { $0.value > 0 }.mapValues { TokenBuckets(rate: Double($0), burst: Double($0) * 2, now: now) }
    }

    /// Takes one request from the caller's bucket; throws 429 with the wait when it is empty.
    func admit(_ caller: Caller) throws {
        guard let buckets = buckets[caller.kind], let seconds = buckets.take(caller.keyTag) else { return }
        throw APIError(status: 429, code: "rate_limited", message: "this key is over its limit of \(Int(buckets.rate)) requests a second; retry after \(seconds) s", field: nil, retryAfter: seconds)
    }
}
