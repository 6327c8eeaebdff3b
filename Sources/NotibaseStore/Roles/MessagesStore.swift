package import NotibaseDomain
/// Stored messages as they are read back (``MessageService``): one, a page, their count, and
/// what their deliveries add up to (counts, waits, the funnel).
package protocol MessagesStore: Sendable {
    func message(appID: String, id: String) async throws -> MessageRecord?
    func message(seq: Int) async throws -> MessageRecord?
    /// A page of the app's messages, in `seq` order either way.
    func messages(appID: String, page: SeqPage) async throws -> [MessageRecord]
    /// How many messages the app has stored: a count of its messages (a bulk read).
    func messageCount(appID: String) async throws -> Int
    func deliveryCounts(messageSeq: Int) async throws -> [(state: String, platform: String, count: Int)]
    /// How many of a message's deliveries wait for a later moment (queued, never tried, due after
    /// `now`: their local time, quiet hours or their turn at the rate), and when the last is due.
    func waitingDeliveries(messageSeq: Int, now: Int) async throws -> (count: Int, lastDueAt: Int?)
    /// A message's funnel: deliveries by state, what devices reported, failures by reason, counted as
    /// `counting` says (the caller passes the funnel's rules).
    func funnel(messageSeq: Int, counting: some FunnelCounting) async throws -> Funnel
    /// A message's deliveries retrying because the provider refused the app's credentials, by
    /// platform and reason (the provider's, as their last history entry says).
    func waitingForCredentials(messageSeq: Int) async throws -> [CredentialWait]
}

extension MessagesStore {
    /// The list as it was first read: newest first before a `seq`.
    package func messages(appID: String, beforeSeq: Int, limit: Int) async throws -> [MessageRecord] {
        try await messages(appID: appID, page: .before(beforeSeq, limit: limit))
    }
}
