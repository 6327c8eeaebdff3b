import NotibaseCore
import Synchronization

/// Sends pushes to iPhones through APNs: HTTP/2 over TLS (nghttp2 and OpenSSL), token (ES256 JWT) or
/// certificate authentication, a few multiplexed connections per app and environment, and every
/// documented answer mapped by `APNsAnswerTable`.
///
/// ```swift
/// let sender = APNsSender()                       // Apple's hosts, the system's CAs
/// let outcomes = await sender.send(pushes)        // one outcome per push, in order
/// ```
package final class APNsSender: Sender {
    private struct State {
        var pools: [APNsPool.Key: APNsPool] = [:]
        var isShutDown = false
    }

    private let configuration: APNsSenderConfiguration
    private let state = Mutex(State())

    /// A sender; nothing connects until the first push.
    package init(configuration: APNsSenderConfiguration = APNsSenderConfiguration()) {
        self.configuration = configuration
    }

    package func send(_ pushes: [Push]) async -> [SendOutcome] {
        await GroupedSend.run(pushes, provider: "APNs", extract: { push -> (key: APNsPool.Key, request: APNsRequest, credentials: APNsCredentials)? in
            guard case .apns(let request) = push.request, case .apns(let credentials) = push.credentials else { return nil }
            let key = APNsPool.Key(appID: credentials.appID, environment: credentials.environment, revision: credentials.revision)
            return (key, request, credentials)
        }, send: { [self] key, credentials, requests in
            await pool(for: key, credentials: credentials)?.send(requests)
        })
    }

    /// Fails what is in flight as `retry`, closes every connection; later pushes get `retry`.
    package func shutdown() async {
        let pools = state.withLock { state in
            state.isShutDown = true
            defer { state.pools = [:] }
            return Array(state.pools.values)
        }
        for pool in pools { await pool.shutdown() }
    }

    /// The pool for `key`, made on first use. A newer credential revision retires the app's older
    /// pools (their in-flight pushes end as `retry`).
    private func pool(for key: APNsPool.Key, credentials: APNsCredentials) -> APNsPool? {
        let (pool, retired) = state.withLock { state -> (APNsPool?, [APNsPool]) in
            guard !state.isShutDown else { return (nil, []) }
            if let pool = state.pools[key] { return (pool, []) }
            let stale = state.pools.keys.filter { $0.appID == key.appID && $0.environment == key.environment && $0.revision < key.revision }
            let retired = stale.compactMap { state.pools.removeValue(forKey: $0) }
            let pool = APNsPool(credentials: credentials, configuration: configuration)
            state.pools[key] = pool
            return (pool, retired)
        }
        if !retired.isEmpty {
            Task { for pool in retired { await pool.shutdown() } }
        }
        return pool
    }
}
