package import NotibaseDomain
import NotibaseStore
import NotibaseWebhooks
/// Requests a second, as token buckets that hold twice the rate (a burst of two seconds' worth).
///
/// What each bucket is keyed by: the admin key by the key; a server or client key by its app, so
/// rotating a key does not refill anything. Client-key requests also take from a bucket per client
/// address within the app (``addressShare`` of the client rate), so one address cannot spend the
/// app's whole bucket: its excess is refused before it reaches the app's bucket.
package final class RateLimiter: Sendable {
    /// The part of an app's client-key rate one client address may use.
    package static let addressShare = 0.1

    private struct AddressKey: Hashable, Sendable {
        package var appID: String
        package var address: IPAddress
    }

    private let buckets: [KeyKind: TokenBuckets<String>]
    private let addressBuckets: TokenBuckets<AddressKey>?

    /// `rates` gives requests per second per key kind; 0 or absent means no limit.
    package init(rates: [KeyKind: Int], now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        buckets = rates.filter { $0.value > 0 }.mapValues { TokenBuckets(rate: Double($0), burst: Double($0) * 2, now: now) }
        addressBuckets = rates[.client].flatMap { rate in
            guard rate > 0 else { return nil }
            let share = max(1, Double(rate) * Self.addressShare)
            return TokenBuckets(rate: share, burst: share * 2, now: now)
        }
    }

    /// Takes one request from the caller's buckets; refuses (too many, `rate_limited`) with the
    /// wait when one is empty.
    /// `client` is the request's client address, when it came over a socket.
    package func admit(_ caller: Caller, from client: IPAddress?) throws {
        if caller.kind == .client, let appID = caller.appID, let client, let addressBuckets,
           let seconds = addressBuckets.take(AddressKey(appID: appID, address: client)) {
            throw Self.limited("this address is over its limit of \(Int(addressBuckets.rate)) requests a second with this app's client key", seconds)
        }
        guard let buckets = buckets[caller.kind], let seconds = buckets.take(caller.appID ?? "admin") else { return }
        let owner = caller.appID == nil ? "the admin key" : "this app's \(caller.kind.rawValue) key"
        throw Self.limited("\(owner) is over its limit of \(Int(buckets.rate)) requests a second", seconds)
    }

    private static func limited(_ message: String, _ seconds: Int) -> Refusal {
        Refusal(kind: .tooMany(retryAfter: seconds), code: "rate_limited", message: "\(message); retry after \(seconds) s", field: nil)
    }
}
