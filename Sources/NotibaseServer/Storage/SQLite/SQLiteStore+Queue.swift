import NotibaseCore
import NotibaseSenders

extension SQLiteStore {
    /// Messages whose fan-out is due or under way (oldest first): those due, through their send
    /// time, never every scheduled message (`messages_state` would read the later ones too).
    func messagesToFanOut(now: Int, limit: Int) throws -> [MessageRecord] {
        try connection.query(
            """
            SELECT \(Rows.messageColumns)
            FROM messages INDEXED BY messages_pending WHERE state IN (\(Lifecycle.toFanOutSQL)) AND send_at <= ? ORDER BY send_at, seq LIMIT ?
            """, [.int(now), .int(limit)], Rows.message)
    }

    /// Writes the deliveries for the next `limit` devices of a message's audience, and moves its
    /// cursor, in one transaction: a crash repeats or skips nothing. Returns how many were written
    /// and whether the audience is exhausted (the message then moves to `sending`).
    func fanOutBatch(messageSeq: Int, audience: Audience, chooser: VariantChooser, limit: Int, now: Int, claim: FanOutClaim?) throws -> FanOutBatch {
        try connection.transaction {
            try writeFanOutBatch(messageSeq: messageSeq, audience: audience, chooser: chooser, limit: limit, now: now, claim: claim)
        }
    }

    /// The batch ``fanOutBatch(messageSeq:audience:chooser:limit:now:claim:)`` writes, inside a
    /// transaction; `inserted` is the message when this transaction stored it (not read again).
    func writeFanOutBatch(
        messageSeq: Int, audience: Audience, chooser: VariantChooser, limit: Int, now: Int, claim: FanOutClaim?, inserted: MessageRecord? = nil
    ) throws -> FanOutBatch {
        guard let message = try inserted ?? reads.message(seq: messageSeq), message.state == .scheduled || message.state == .fanningOut else {
            return FanOutBatch(written: 0, done: true)
        }
        let source = audience.sqlSource
        let targets = try connection.query(
            """
            SELECT devices.seq, devices.platform, devices.locale, devices.time_zone, devices.token, devices.created_at, devices.apns_environment FROM \(source.from)
            WHERE devices.app_id = ? AND devices.active = 1 AND devices.seq > ? AND \(source.condition) ORDER BY devices.seq LIMIT ?
            """,
            source.fromValues + [.text(message.appID), .int(message.fanOutCursor)] + source.values + [.int(limit)]) {
            ($0.int(0), $0.text(1), $0.optionalText(2), $0.optionalText(3), $0.text(4), createdAt: $0.int(5),
             apnsEnvironment: $0.optionalText(6).flatMap(APNsEnvironment.init(rawValue:)))
        }
        let written = Lifecycle.deliveriesWritten(now: now, messageCreated: message.createdAt, devicesCreated: targets.map(\.createdAt))
        let ids = try Identifier.make(count: targets.count, milliseconds: written)
        var variants: [String: String?] = [:]  // locales repeat: choose once per locale
        var schedule = DeliverySchedule(message: message)
        var claimed: [ClaimedDelivery] = []
        var counts: [String: [String: Int]] = [:]
        for ((deviceSeq, platform, locale, timeZone, token, _, apnsEnvironment), id) in zip(targets, ids) {
            let variant: String? = locale.flatMap { locale in
                if let known = variants[locale] { return known }
                let chosen = chooser.variant(for: locale)
                variants[locale] = .some(chosen)
                return chosen
            }
            let decision = schedule?.decide(timeZone: timeZone)
            // Claimed as a claim leaves it: due when the lease ends, one attempt.
            let lease = decision == nil && claimed.count < (claim?.limit ?? 0) ? claim?.lease : nil
            let claiming = lease != nil
            let due: Int? = lease.map { now + $0 } ?? (decision?.failure == nil ? decision?.dueAt ?? now : nil)
            counts[platform, default: [:]][decision?.failure == nil ? "queued" : "failed", default: 0] += 1
            let seq = try connection.first(
                """
                INSERT INTO deliveries (id, message_seq, device_seq, platform, variant, state, due_at, attempts, created_at, updated_at, moment_at, scheduled_at, schedule)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq
                """,
                [.text(id), .int(messageSeq), .int(deviceSeq), .text(platform), .optionalText(variant),
                 .text(decision?.failure == nil ? "queued" : "failed"), .optionalInt(due), .int(claiming ? 1 : 0),
                 .int(written), .int(written), .optionalInt(decision?.origin), .optionalInt(decision?.dueAt), .optionalText(decision?.note)]) { $0.int(0) }
            if claiming, let seq {
                claimed.append(ClaimedDelivery(
                    seq: seq, id: id, messageSeq: messageSeq, deviceSeq: deviceSeq, platform: Platform(rawValue: platform) ?? .ios, variant: variant,
                    attempts: 1, createdAt: written, token: token, deviceActive: true, apnsEnvironment: apnsEnvironment))
            }
            if let failure = decision?.failure, let seq {
                try connection.run(
                    "INSERT INTO delivery_events (delivery_seq, event, at, detail) VALUES (?, 'failed', ?, ?)",
                    [.int(seq), .int(written), .text(DeliveryEventDetail.because(failure).stored)])
            }
        }
        if let plan = schedule?.plan, var pacing = message.pacing {
            pacing.plan = plan  // the rate's progress commits with the cursor
            try connection.run("UPDATE messages SET pacing = ? WHERE seq = ?", [.text(try StoredJSON.encode(pacing)), .int(messageSeq)])
        }
        let done = targets.count < limit
        let state: MessageState = done ? .sending : .fanningOut
        try connection.run(
            "UPDATE messages SET fanout_cursor = ?, state = ? WHERE seq = ?",
            [.int(targets.last?.0 ?? message.fanOutCursor), .text(state.rawValue), .int(messageSeq)])
        if done { try completeIfFinished(messageSeqs: [messageSeq], now: written) }
        return FanOutBatch(written: targets.count, done: done, claimed: claimed, counts: counts)
    }

    /// Claims up to `limit` due deliveries for `lease` milliseconds: their due time moves to the
    /// lease's end, so if the worker dies they become due again then. Messages being sent take
    /// turns (``ClaimShares``).
    func claimDeliveries(now: Int, lease: Int, limit: Int) throws -> [ClaimedDelivery] {
        try connection.transaction {
            var seqs: [Int] = []
            // Messages with something due now: those waiting for their moment (pacing) take no share.
            // Apps take turns for the shares: each app's oldest, then each app's second, and so on.
            let sending = try connection.query(
                """
                SELECT seq FROM (
                    SELECT seq, row_number() OVER (PARTITION BY app_id ORDER BY seq) AS turn FROM messages
                    WHERE state IN (\(Lifecycle.beingSentSQL)) AND EXISTS (SELECT 1 FROM deliveries WHERE message_seq = messages.seq AND due_at <= ?)
                ) AS sending ORDER BY turn, seq LIMIT ?
                """, [.int(now), .int(ClaimShares.messagesPerClaim)]) { $0.int(0) }
            if let share = ClaimShares.share(limit: limit, sendingMessages: sending.count) {
                for message in sending where seqs.count < limit {
                    seqs += try connection.query(
                        """
                        UPDATE deliveries SET due_at = ?, attempts = attempts + 1
                        WHERE seq IN (SELECT seq FROM deliveries WHERE message_seq = ? AND due_at <= ? ORDER BY due_at LIMIT ?)
                        RETURNING seq
                        """, [.int(now + lease), .int(message), .int(now), .int(min(share, limit - seqs.count))]) { $0.int(0) }
                }
            }
            // What the shares left, oldest first (the deliveries just claimed are no longer due).
            // Only of messages being sent: a cancelled or failed one's are ended, in batches, not
            // sent. Checked after the LIMIT, a message at a time by its key, so the claim reads no
            // more than before; what it passes over, its message's end or the sweep removes.
            if seqs.count < limit {
                seqs += try connection.query(
                    """
                    UPDATE deliveries SET due_at = ?, attempts = attempts + 1
                    WHERE seq IN (SELECT seq FROM deliveries WHERE due_at <= ? ORDER BY due_at LIMIT ?)
                    AND (SELECT state FROM messages WHERE seq = deliveries.message_seq) IN (\(Lifecycle.beingSentSQL))
                    RETURNING seq
                    """, [.int(now + lease), .int(now), .int(limit - seqs.count)]) { $0.int(0) }
            }
            guard !seqs.isEmpty else { return [] }
            // One read for the whole batch. A token is only ever read through the app that owns
            // both the message and the device: a device of another app reads as none.
            return try connection.query(
                """
                SELECT \(Rows.claimedColumns)
                FROM deliveries d JOIN messages m ON m.seq = d.message_seq
                LEFT JOIN devices v ON v.seq = d.device_seq AND v.app_id = m.app_id
                WHERE d.seq IN (SELECT value FROM json_each(?)) ORDER BY d.seq
                """, [.text(JSON.text(seqs))], Rows.claimed)
        }
    }

    /// Records what happened to claimed deliveries, in one transaction.
    func recordDeliveries(_ updates: [DeliveryUpdate], messageSeqs: Set<Int>, now: Int) throws {
        try connection.transaction {
            for update in updates {
                // A send is kept in the row itself (sent_at, provider_id, attempts), not as an event
                // row: the one write most deliveries need, done once.
                let sent = update.state == .sent
                try connection.run(
                    """
                    UPDATE deliveries SET state = CASE WHEN state IN (\(Lifecycle.replacedByOutcomeSQL)) THEN ? ELSE state END,
                        due_at = CASE WHEN state IN (\(Lifecycle.replacedByOutcomeSQL)) THEN ? ELSE due_at END,
                        provider_id = coalesce(?, provider_id), sent_at = coalesce(?, sent_at), updated_at = ?
                    WHERE seq = ?
                    """,
                    [.text(update.state.rawValue), .optionalInt(update.dueAt), .optionalText(update.providerID), sent ? .int(now) : .null, .int(now), .int(update.seq)])
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
            try completeIfFinished(messageSeqs: messageSeqs, now: now)
        }
    }

    /// Marks `sending` messages with no delivery left to send as completed.
    func completeIfFinished(messageSeqs: Set<Int>, now: Int) throws {
        for seq in messageSeqs {
            try connection.run(
                """
                UPDATE messages SET state = 'completed', finished_at = ? WHERE seq = ? AND state = 'sending'
                AND NOT EXISTS (SELECT 1 FROM deliveries WHERE message_seq = ? AND state IN (\(Lifecycle.pendingSQL)))
                """, [.int(now), .int(seq), .int(seq)])
        }
    }

    func completeFinishedMessages(now: Int) throws -> Int {
        try connection.run(
            """
            UPDATE messages SET state = 'completed', finished_at = ? WHERE state = 'sending'
            AND NOT EXISTS (SELECT 1 FROM deliveries WHERE message_seq = messages.seq AND state IN (\(Lifecycle.pendingSQL)))
            """, [.int(now)])
    }
}
