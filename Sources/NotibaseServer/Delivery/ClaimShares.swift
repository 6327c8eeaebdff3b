/// How a claim shares its batch between the messages being sent, so that a message to one device
/// posted while a million-device message is sending goes out with the next claim instead of after
/// the backlog ahead of it: each sending message with deliveries due (up to ``messagesPerClaim`` of
/// them, the apps taking turns: every app's oldest, then every app's second, and so on, so that
/// one app's hundred campaigns leave another app's message its share; one whose deliveries all
/// wait for a later moment takes none) gets an equal share of its due deliveries, oldest first,
/// and what the shares leave is filled with the oldest due deliveries of any message.
enum ClaimShares {
    /// The most messages a claim gives a share to; past these, the oldest due deliveries go first.
    static let messagesPerClaim = 100

    /// Each message's share of a batch of `limit`, or nil when shares make no difference (one
    /// message sending, or none).
    static func share(limit: Int, sendingMessages: Int) -> Int? {
        guard sendingMessages > 1, limit > 0 else { return nil }
        return max(1, limit / min(sendingMessages, messagesPerClaim))
    }
}
