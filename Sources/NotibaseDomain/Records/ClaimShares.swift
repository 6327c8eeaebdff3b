/// How a claim shares its batch between the messages being sent, so that a message to one device
/// posted while a million-device message is sending goes out with the next claim instead of after
/// the backlog ahead of it: each sending message with deliveries due (up to ``messagesPerClaim`` of
/// them, the apps taking turns: every app's oldest, then every app's second, and so on, so that
/// one app's hundred campaigns leave another app's message its share; one whose deliveries all
/// wait for a later moment takes none) gets an equal share of its due deliveries, oldest first,
/// and what the shares leave is filled with the oldest due deliveries of any message.
package enum ClaimShares {
    /// The most messages a claim gives a share to; past these, the oldest due deliveries go first.
    package static let messagesPerClaim = 100

    /// Each message's share of a batch of `limit`, or nil when shares make no difference (one
    /// message sending, or none).
    package static func share(limit: Int, sendingMessages: Int) -> Int? {
        guard sendingMessages > 1, limit > 0 else { return nil }
        return max(1, limit / min(sendingMessages, messagesPerClaim))
    }
}

extension ClaimShares {
    /// The steps of a claim of up to `limit` deliveries, the same on every backend: each message of
    /// `sending` (those that take a share, in their turns) up to its share, then what the shares
    /// left, the oldest due of any message. `take(message, count)` claims up to `count` due
    /// deliveries of `message` (nil: of any message being sent) and returns their numbers; a store
    /// writes only that statement.
    package static func claim(limit: Int, sending: [Int], _ take: (_ message: Int?, _ count: Int) throws -> [Int]) rethrows -> [Int] {
        var seqs: [Int] = []
        if let share = share(limit: limit, sendingMessages: sending.count) {
            for message in sending where seqs.count < limit {
                seqs += try take(message, min(share, limit - seqs.count))
            }
        }
        // What the shares left, oldest first (the deliveries just claimed are no longer due).
        if seqs.count < limit { seqs += try take(nil, limit - seqs.count) }
        return seqs
    }
}
