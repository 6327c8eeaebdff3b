import Synchronization
package import NotibaseDomain
import NotibaseStore

extension SQLiteStore {
    /// Writes the deliveries for the next `limit` devices of a message's audience, as `plan`
    /// decides them, and moves its cursor, in one transaction: a crash repeats or skips nothing.
    /// Returns how many were written and whether the audience is exhausted (the message then
    /// moves to `sending`).
    package func fanOutBatch(messageSeq: Int, audience: Audience, limit: Int, now: Int, claim: FanOutClaim?, plan: @escaping FanOutPlan) throws -> FanOutBatch {
        try connection.transaction {
            try writeFanOutBatch(messageSeq: messageSeq, audience: audience, limit: limit, now: now, claim: claim, plan: plan)
        }
    }

    /// The batch ``fanOutBatch(messageSeq:audience:limit:now:claim:plan:)`` writes, inside a
    /// transaction; `inserted` is the message when this transaction stored it (not read again).
    package func writeFanOutBatch(
        messageSeq: Int, audience: Audience, limit: Int, now: Int, claim: FanOutClaim?, plan: FanOutPlan, inserted: MessageRecord? = nil
    ) throws -> FanOutBatch {
        guard let message = try inserted ?? reads.message(seq: messageSeq), Lifecycle.toFanOut.contains(message.state) else {
            return FanOutBatch(written: 0, done: true)
        }
        // While its app has an endpoint, what the sends' events name is read now, for those the
        // batch hands its node, if it may (``ClaimedDelivery/sendFacts``).
        let facts = claim != nil && appsWithEndpoints.contains(message.appID)
        let withoutEndpoint = claim != nil && !facts && !appsWithEndpoints.isEmpty ? message.appID : nil
        let targets = try reads.fanOutTargets(appID: message.appID, audience, after: message.fanOutCursor, limit: limit, facts: facts)
        let writes = plan(FanOutInputs(message: message, targets: targets, limit: limit, now: now, claim: claim))
        let ids = try Identifier.make(count: writes.rows.count, milliseconds: writes.written)
        var claimed: [ClaimedDelivery] = []
        for (row, id) in zip(writes.rows, ids) {
            // The row's number is its rowid: read back, not returned (SQLite holds a statement's
            // RETURNING rows in a temporary table it makes and frees each time it runs).
            try connection.run(
                """
                INSERT INTO deliveries (id, message_seq, device_seq, platform, variant, state, due_at, attempts, created_at, updated_at, moment_at, scheduled_at, schedule)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [.text(id), .int(messageSeq), .int(row.target.seq), .text(row.target.platform), .optionalText(row.variant),
                 .text(row.state.rawValue), .optionalInt(row.due), .int(row.attempts),
                 .int(writes.written), .int(writes.written), .optionalInt(row.moment), .optionalInt(row.scheduled), .optionalText(row.schedule)])
            let seq = connection.lastInsertRowID
            if row.claimed {
                var delivery = row.claimedDelivery(seq: seq, id: id, messageSeq: messageSeq, written: writes.written, factsOf: facts ? message : nil)
                delivery.appWithoutEndpoint = withoutEndpoint
                claimed.append(delivery)
            }
            if let failure = row.failure {
                try connection.run(
                    "INSERT INTO delivery_events (delivery_seq, event, at, detail) VALUES (?, 'failed', ?, ?)", [.int(seq), .int(writes.written), .text(failure)])
            }
        }
        if let pacing = writes.pacing {
            try connection.run("UPDATE messages SET pacing = ? WHERE seq = ?", [.text(try StoredJSON.encode(pacing)), .int(messageSeq)])
        }
        try connection.run(
            "UPDATE messages SET fanout_cursor = ?, state = ? WHERE seq = ?", [.int(writes.cursor), .text(writes.state.rawValue), .int(messageSeq)])
        if writes.mayComplete { try reads.complete(messageSeqs: [messageSeq], now: writes.written) }
        return FanOutBatch(written: targets.count, done: writes.done, claimed: claimed, counts: writes.counts)
    }

    /// Claims up to `limit` due deliveries for `lease` milliseconds: their due time moves to the
    /// lease's end, so if the worker dies they become due again then. Messages being sent take
    /// turns (``ClaimShares``).
    package func claimDeliveries(now: Int, lease: Int, limit: Int) throws -> [ClaimedDelivery] {
        try connection.transaction {
            // Messages with something due now: those waiting for their moment (pacing) take no share.
            // Apps take turns for the shares: each app's oldest, then each app's second, and so on.
            let sending = try connection.query(
                """
                SELECT seq FROM (
                    SELECT seq, row_number() OVER (PARTITION BY app_id ORDER BY seq) AS turn FROM messages
                    WHERE state IN (\(Lifecycle.beingSentSQL)) AND EXISTS (SELECT 1 FROM deliveries WHERE message_seq = messages.seq AND due_at <= ?)
                ) AS sending ORDER BY turn, seq LIMIT ?
                """, [.int(now), .int(ClaimShares.messagesPerClaim)]) { $0.int(0) }
            let seqs = try ClaimShares.claim(limit: limit, sending: sending) { message, count in
                guard let message else {
                    // Only of messages being sent: a cancelled or failed one's are ended, in batches,
                    // not sent. Checked after the LIMIT, a message at a time by its key, so the claim
                    // reads no more than before; what it passes over, its message's end or the sweep
                    // removes.
                    return try connection.query(
                        """
                        UPDATE deliveries SET due_at = ?, attempts = attempts + 1
                        WHERE seq IN (SELECT seq FROM deliveries WHERE due_at <= ? ORDER BY due_at LIMIT ?)
                        AND (SELECT state FROM messages WHERE seq = deliveries.message_seq) IN (\(Lifecycle.beingSentSQL))
                        RETURNING seq
                        """, [.int(now + lease), .int(now), .int(count)]) { $0.int(0) }
                }
                return try connection.query(
                    """
                    UPDATE deliveries SET due_at = ?, attempts = attempts + 1
                    WHERE seq IN (SELECT seq FROM deliveries WHERE message_seq = ? AND due_at <= ? ORDER BY due_at LIMIT ?)
                    RETURNING seq
                    """, [.int(now + lease), .int(message), .int(now), .int(count)]) { $0.int(0) }
            }
            guard !seqs.isEmpty else { return [] }
            // One read for the whole batch. A token is only ever read through the app that owns
            // both the message and the device: a device of another app reads as none. For an app
            // with an endpoint, what the sends' events name is read with it
            // (``ClaimedDelivery/sendFacts``), its message's IDs once per message.
            let facts = !appsWithEndpoints.isEmpty
            var message: (seq: Int, appID: String, id: String, wanted: Bool)?
            return try connection.query(
                """
                SELECT \(Rows.claimedColumns)\(facts ? ", v.id, v.external_user_id, d.provider_id, m.app_id, m.id" : "")
                FROM deliveries d JOIN messages m ON m.seq = d.message_seq
                LEFT JOIN devices v ON v.seq = d.device_seq AND v.app_id = m.app_id
                WHERE d.seq IN (SELECT value FROM json_each(?)) ORDER BY d.seq
                """, [.text(JSON.text(seqs))]
            ) { row in
                var delivery = Rows.claimed(row)
                guard facts else { return delivery }
                if message?.seq != delivery.messageSeq {
                    let appID = row.text(17)
                    message = (delivery.messageSeq, appID, row.text(18), appsWithEndpoints.contains(appID))
                }
                guard message!.wanted else {
                    delivery.appWithoutEndpoint = message!.appID
                    return delivery
                }
                delivery.sendFacts = SendFacts(
                    appID: message!.appID, messageID: message!.id, deliveryID: delivery.id, platform: row.text(4), deviceID: row.optionalText(14),
                    externalUserID: row.optionalText(15), storedProviderID: row.optionalText(16))
                return delivery
            }
        }
    }

    /// Records what happened to claimed deliveries, in one transaction. While an app may have a
    /// webhook endpoint, the sends' `delivery.sent` events are rendered first (``WebhookSentRows``),
    /// from what their claim read (``ClaimedDelivery/sendFacts``), or else from what a reader
    /// reads (``sendFacts(_:_:)``): the one writer only stores them.
    package nonisolated func recordDeliveries(_ updates: [DeliveryUpdate], messageSeqs: Set<Int>, now: Int) async throws {
        guard endpointsMayExist.load(ordering: .relaxed) else { return try await record(updates, messageSeqs: messageSeqs, now: now, sent: WebhookSentRows()) }
        var sent = WebhookSentRows(updates)
        if !sent.unrendered.isEmpty {
            // Should the read fail, the writer reads them itself.
            let unread = sent.unrendered
            if let read = try? await readers.read({ try Self.sendFacts($0.connection, unread) }) { sent = sent.adding(read) }
        }
        try await record(updates, messageSeqs: messageSeqs, now: now, sent: sent)
    }

    private func record(_ updates: [DeliveryUpdate], messageSeqs: Set<Int>, now: Int, sent: WebhookSentRows) throws {
        try connection.transaction {
            var firstSends: [Int] = []
            for update in updates {
                // A send is kept in the row itself (sent_at, provider_id, attempts), not as an event
                // row: the one write most deliveries need, done once. A delivery's first send (its
                // `delivery.sent` event) is the update that finds sent_at unset: asked of the row
                // the update changes, not by a read of its own.
                let sent = update.state == .sent
                let values: [SQLParameter] = [
                    .text(update.state.rawValue), .optionalInt(update.dueAt), .optionalText(update.providerID), sent ? .int(now) : .null, .int(now), .int(update.seq),
                ]
                if sent, try connection.run(Self.firstSend, values) == 1 {
                    firstSends.append(update.seq)
                } else {
                    try connection.run(Self.outcome, values)
                }
                if !sent {
                    try connection.run(
                        "INSERT INTO delivery_events (delivery_seq, event, at, detail) VALUES (?, ?, ?, ?)",
                        [.int(update.seq), .text(update.event), .int(now), .optionalText(update.detail?.stored)])
                }
                if let device = update.deactivateDevice {
                    try connection.run(
                        "UPDATE devices SET active = 0, deactivated_reason = ?, deactivated_at = ?, updated_at = ? WHERE seq = ? AND active = 1",
                        [.text(device.reason), .int(device.at), .int(now), .int(device.seq)])
                }
            }
            try recordSentEvents(firstSends, now: now, sent: sent)
            try reads.complete(messageSeqs: messageSeqs, now: now)
        }
    }

    /// A worker's outcome for one delivery (the state, the due time, the provider's ID, the send
    /// time, now, its number): the state and due time only while the stored state is one an
    /// outcome replaces. The states are compared one by one: SQLite makes a list of three or more
    /// (`state IN (…)`) into a temporary table each time the statement runs, twice a row here,
    /// and its making and freeing took a twentieth of the writer's time in a large send
    /// (docs/benchmarks/2026-12-07-lab-notes.md).
    package static let outcome = """
        UPDATE deliveries SET state = CASE WHEN \(replaced) THEN ?1 ELSE state END, due_at = CASE WHEN \(replaced) THEN ?2 ELSE due_at END,
            provider_id = coalesce(?3, provider_id), sent_at = coalesce(?4, sent_at), updated_at = ?5
        WHERE seq = ?6
        """
    /// ``outcome`` for a send, changing the row only if it was never sent.
    package static let firstSend = outcome + " AND sent_at IS NULL"
    private static let replaced = "(" + Lifecycle.replacedByOutcome.sorted { $0.rawValue < $1.rawValue }.map { "state = '\($0.rawValue)'" }.joined(separator: " OR ") + ")"
}
