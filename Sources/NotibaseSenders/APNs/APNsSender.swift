import NotibaseCore
import Synchronization

/// Sends pushes to iPhones through APNs: HTTP/2 over TLS (libcurl), token (ES256 JWT) or
/// certificate authentication, a few multiplexed connections per app and environment, and every
/// documented answer mapped by `APNsAnswerTable`.
///
/// ```swift
/// let sender = APNsSender()                       // Apple's hosts, the system's CAs
/// let outcomes = await sender.send(pushes)        // one outcome per push, in order
/// ```
public final class APNsSender: Sender {
    private struct State {
        var pools: [APNsPool.Key: APNsPool] = [:]
        var isShutDown = false
    }

    private let configuration: APNsSenderConfiguration
    private let state = Mutex(State())

    /// A sender; nothing connects until the first push.
    public init(configuration: APNsSenderConfiguration = APNsSenderConfiguration()) {
        self.configuration = configuration
    }

    public func send(_ pushes: [Push]) async -> [SendOutcome] {
        var outcomes = [SendOutcome?](repeating: nil, count: pushes.count)
        var groups: [APNsPool.Key: (credentials: APNsCredentials, indices: [Int])] = [:]
        for (index, push) in pushes.enumerated() {
            guard case .apns = push.request, case .apns(let credentials) = push.credentials else {
                outcomes[index] = TransportOutcome.wrongProvider(expected: "APNs")
                continue
            }
            let key = APNsPool.Key(appID: credentials.appID, environment: credentials.environment, revision: credentials.revision)
            groups[key, default: (credentials, [])].indices.append(index)
        }
        await withTaskGroup(of: [(Int, SendOutcome)].self) { group in
            for (key, entry) in groups {
                guard let pool = pool(for: key, credentials: entry.credentials) else {
                    for index in entry.indices { outcomes[index] = TransportOutcome.senderShutDown(provider: "APNs") }
                    continue
                }
                let requests = entry.indices.map { index -> APNsRequest in
                    guard case .apns(let request) = pushes[index].request else { preconditionFailure("grouped above") }
                    return request
                }
                group.addTask { Array(zip(entry.indices, await pool.send(requests))) }
            }
            for await results in group {
                for (index, outcome) in results { outcomes[index] = outcome }
            }
        }
        return outcomes.map { $0 ?? TransportOutcome.senderShutDown(provider: "APNs") }
    }

    /// Fails what is in flight as `retry`, closes every connection; later pushes get `retry`.
    public func shutdown() async {
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
