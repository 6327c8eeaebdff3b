/// How both senders fan a batch out: pushes of the wrong provider fail, the rest are grouped by
/// app (their connection or token cache), and each app's share is sent concurrently.
enum GroupedSend {
    /// Sends `pushes` grouped by the key `extract` gives (nil: not this provider's push). `send`
    /// returns one outcome per request of a group, or nil when the sender is shut down.
    static func run<Key: Hashable & Sendable, Request: Sendable, Credentials: Sendable>(
        _ pushes: [Push],
        provider: String,
        extract: (Push) -> (key: Key, request: Request, credentials: Credentials)?,
        send: @escaping @Sendable (Key, Credentials, [Request]) async -> [SendOutcome]?
    ) async -> [SendOutcome] {
        var outcomes = [SendOutcome?](repeating: nil, count: pushes.count)
        var groups: [Key: (credentials: Credentials, indices: [Int], requests: [Request])] = [:]
        for (index, push) in pushes.enumerated() {
            guard let (key, request, credentials) = extract(push) else {
                outcomes[index] = TransportOutcome.wrongProvider(expected: provider)
                continue
            }
            groups[key, default: (credentials, [], [])].indices.append(index)
            groups[key]?.requests.append(request)
        }
        await withTaskGroup(of: [(Int, SendOutcome)].self) { group in
            for (key, entry) in groups {
                group.addTask {
                    let results = await send(key, entry.credentials, entry.requests)
                        ?? Array(repeating: TransportOutcome.senderShutDown(provider: provider), count: entry.indices.count)
                    return Array(zip(entry.indices, results))
                }
            }
            for await results in group {
                for (index, outcome) in results { outcomes[index] = outcome }
            }
        }
        return outcomes.map { $0 ?? TransportOutcome.senderShutDown(provider: provider) }
    }
}
