import Foundation
import Synchronization
package import NotibaseDomain
import NotibaseStore

extension PostgresStore {
    /// Writes the next batch of a message's deliveries and moves its cursor, in one transaction.
    /// The message's row is locked for it: one node at a time fans a message out, and another
    /// skips it (nothing written, not done) and takes its turn on the next round, so a node that
    /// dies mid-fan-out leaves the message to the others at its last committed batch.
    package func fanOutBatch(messageSeq: Int, audience: Audience, limit: Int, now: Int, claim: FanOutClaim?, plan: @escaping FanOutPlan) async throws -> FanOutBatch {
        let (batch, written, after) = try await pool.transaction { connection in
            try self.writeFanOutBatch(connection, messageSeq: messageSeq, audience: audience, limit: limit, now: now, claim: claim, plan: plan)
        }
        if after.mayComplete { await completeAfterCommit(messageSeqs: [messageSeq], now: written) }
        // A new week's first rows: statistics for it now, not at autovacuum's first visit
        // (PostgresSchema.historyStatistics). The batch has committed: should this fail, the batch
        // still stands, and the next one asks again.
        if batch.written > 0 { await giveHistoryStatistics(at: written) }
        return batch
    }

    /// Gives the week that holds `at` its first statistics if it has none
    /// (``PostgresSchema/historyStatistics``), asking at most once a second per week and node: a
    /// one-device message writes a batch of its own, and asking after each cost a round trip a
    /// message. The first batch of a week still asks at once. Should the call fail, the batch
    /// stands and a later one asks again.
    package func giveHistoryStatistics(at: Int) async {
        let week = PostgresSchema.historyWeek(at)
        let now = ContinuousClock.now
        let due = statisticsAsked.withLock { asked in
            guard asked[week].map({ now - $0 >= .seconds(1) }) ?? true else { return false }
            asked[week] = now
            if asked.count > 64 { asked = asked.filter { now - $0.value < .seconds(60) } }
            return true
        }
        if due { _ = try? await pool.withConnection { try $0.run("SELECT notibase_analyze_history($1)", [.int(at)]) } }
    }

    /// The batch ``fanOutBatch(messageSeq:audience:limit:now:claim:plan:)`` writes, inside a
    /// transaction, and the time its deliveries are stamped with.
    /// `inserted` is the message when this transaction stored it (its row is this transaction's
    /// already; not read again).
    ///
    /// `targets`: the devices after the message's cursor, when the caller read them already
    /// (``SQLExecutor/fanOutTargets(appID:_:after:limit:facts:)``).
    ///
    /// `after`: the message's state as the batch left it; `mayComplete`: it may be complete, and
    /// the caller completes it once this transaction has committed
    /// (``completeAfterCommit(messageSeqs:now:)``). A message this transaction stored is
    /// completed inside it: no other transaction can have written its deliveries' outcomes.
    package func writeFanOutBatch(
        _ connection: PostgresConnection, messageSeq: Int, audience: Audience, limit: Int, now: Int, claim: FanOutClaim?, plan: FanOutPlan,
        inserted: MessageRecord? = nil, targets read: [FanOutTarget]? = nil
    ) throws -> (FanOutBatch, Int, after: (state: MessageState, finishedAt: Int?, mayComplete: Bool)) {
        guard let message = try inserted ?? connection.query(
            "SELECT \(Rows.messageColumns) FROM messages WHERE seq = $1 FOR UPDATE SKIP LOCKED", [.int(messageSeq)]).first(Rows.message) else {
            return (FanOutBatch(written: 0, done: false), now, (.fanningOut, nil, false))
        }
        guard Lifecycle.toFanOut.contains(message.state) else { return (FanOutBatch(written: 0, done: true), now, (message.state, message.finishedAt, false)) }
        // While an endpoint may exist, what the sends' events name is read for the deliveries the
        // batch hands its node (``ClaimedDelivery/sendFacts``).
        let facts = claim != nil && endpointsMayExist.load(ordering: .relaxed)
        let targets = try read ?? connection.fanOutTargets(appID: message.appID, audience, after: message.fanOutCursor, limit: limit, facts: facts)
        let writes = plan(FanOutInputs(message: message, targets: targets, limit: limit, now: now, claim: claim))
        let written = writes.written
        let ids = try Identifier.make(count: writes.rows.count, milliseconds: written)
        var claimed: [ClaimedDelivery] = []
        if !writes.rows.isEmpty {
            // The whole batch in one statement, which moves the message's cursor too; the claimed
            // ones' numbers come back.
            let rows = zip(writes.rows, ids).map { NewDelivery($0, id: $1, now: now) }
            let numbers = try connection.query(
                """
                WITH moved AS (UPDATE messages SET fanout_cursor = $5, state = $6 WHERE seq = $1)
                INSERT INTO deliveries (id, message_seq, device_seq, platform, variant, state, due_at, attempts, created_at, updated_at, moment_at, scheduled_at, schedule)
                SELECT r.id, $1, r.device, r.platform, r.variant, coalesce(r.state, 'queued'), CASE WHEN r.state IS NULL THEN coalesce(r.due, $4) END,
                    coalesce(r.attempts, 0), $2, $2, r.moment, r.scheduled, r.schedule
                FROM jsonb_to_recordset($3::jsonb)
                    AS r(id text, device bigint, platform text, variant text, state text, due bigint, attempts integer, moment bigint, scheduled bigint, schedule text)
                RETURNING id, seq, attempts
                """, [.int(messageSeq), .int(written), .text(NewDelivery.recordset(rows)), .int(now), .int(writes.cursor), .text(writes.state.rawValue)])
                .map { (id: $0.text(0), seq: $0.int(1), attempts: $0.int(2)) }
                .reduce(into: [String: Int]()) { numbers, row in
                    if row.attempts > 0 { numbers[row.id] = row.seq }
                }
            claimed = try zip(writes.rows, ids).filter { $0.0.claimed }.map { row, id in
                guard let seq = numbers[id] else { throw StorageError.corrupt("a delivery claimed by its fan-out was not written") }
                return row.claimedDelivery(seq: seq, id: id, messageSeq: messageSeq, written: written, factsOf: facts && read == nil ? message : nil)
            }
            // Rows this node claimed go to its own workers (the Handoff); the others wake every
            // node's. A one-device post's delivery is claimed: no notification, one round trip less.
            if writes.rows.contains(where: { !$0.claimed }) { try self.announce(.delivery, on: connection) }
        }
        let failures = zip(writes.rows, ids).compactMap { row, id in row.failure.map { Failure(id: id, detail: $0) } }
        if !failures.isEmpty {
            try connection.run(
                """
                INSERT INTO delivery_events (delivery_seq, delivery_created_at, event, at, detail)
                SELECT d.seq, d.created_at, 'failed', $1, r.detail FROM jsonb_to_recordset($2::jsonb) AS r(id text, detail text)
                JOIN deliveries d ON d.id = r.id AND d.created_at = $3
                """, [.int(written), .text(RecordsetJSON.of(failures) { failure, json in
                    json.field("id", failure.id)
                    json.field("detail", failure.detail)
                }), .int(written)])
        }
        if let pacing = writes.pacing {
            try connection.run("UPDATE messages SET pacing = $1 WHERE seq = $2", [.text(try StoredJSON.encode(pacing)), .int(messageSeq)])
        }
        if writes.rows.isEmpty {
            try connection.run(
                "UPDATE messages SET fanout_cursor = $1, state = $2 WHERE seq = $3", [.int(writes.cursor), .text(writes.state.rawValue), .int(messageSeq)])
        }
        var after = (state: writes.state, finishedAt: message.finishedAt, mayComplete: false)
        if writes.mayComplete, inserted == nil {
            // Other transactions may have recorded its deliveries: completed after the commit
            // (``completeAfterCommit(messageSeqs:now:)``), by the caller.
            after.mayComplete = true
        } else if writes.mayComplete,
                  try connection.query(CompletionSQL.postgresSome + " RETURNING seq", [.int(written), .text(JSON.text([messageSeq]))]).first({ $0.int(0) }) != nil {
            // A message this transaction stored: all its deliveries are this transaction's.
            after = (Lifecycle.completed, written, false)
        }
        return (FanOutBatch(written: targets.count, done: writes.done, claimed: claimed, counts: writes.counts), written, after)
    }

    /// A delivery to write, as the batch's statement reads it: what is as most rows have it
    /// (queued, due now, no attempt) is left out, to keep the batch's text short.
    private struct NewDelivery {
        package var id: String
        package var device: Int
        package var platform: String
        package var variant: String?
        package var state: String?
        package var due: Int?
        package var attempts: Int?
        package var moment: Int?
        package var scheduled: Int?
        package var schedule: String?

        package init(_ row: FanOutRow, id: String, now: Int) {
            (self.id, device, platform, variant) = (id, row.target.seq, row.target.platform, row.variant)
            state = row.state == .queued ? nil : row.state.rawValue
            due = row.due == now ? nil : row.due
            attempts = row.attempts == 0 ? nil : row.attempts
            (moment, scheduled, schedule) = (row.moment, row.scheduled, row.schedule)
        }

        /// `rows` for the fan-out's `jsonb_to_recordset`.
        package static func recordset(_ rows: [NewDelivery]) -> String {
            RecordsetJSON.of(rows, bytesPerRow: 96) { row, json in
                json.field("id", row.id)
                json.field("device", row.device)
                json.field("platform", row.platform)
                json.field("variant", row.variant)
                json.field("state", row.state)
                json.field("due", row.due)
                json.field("attempts", row.attempts)
                json.field("moment", row.moment)
                json.field("scheduled", row.scheduled)
                json.field("schedule", row.schedule)
            }
        }
    }

    private struct Failure {
        package var id: String
        package var detail: String
    }

    /// Claims up to `limit` due deliveries for `lease` milliseconds, skipping those another node
    /// is claiming at the same moment, and reads their devices. Messages being sent take turns
    /// (``ClaimShares``): each one's share first, then the oldest due of any.
    package func claimDeliveries(now: Int, lease: Int, limit: Int) async throws -> [ClaimedDelivery] {
        try await pool.transaction { connection in
            let sending = try connection.query(Self.sendingMessages, [.int(ClaimShares.messagesPerClaim), .int(now)]).map { $0.int(0) }
            let seqs = try ClaimShares.claim(limit: limit, sending: sending) { message, count in
                let condition = message == nil ? "due_at <= $2" : "message_seq = $4 AND due_at <= $2"
                // Only deliveries of messages being sent: a cancelled or failed one's are ended, in
                // batches, not sent (the share's message may have been cancelled since it was read).
                // Checked after the LIMIT, a message at a time by its key, so the claim reads no more
                // than before; what it passes over, its message's end or the sweep removes.
                return try connection.query(
                    """
                    UPDATE deliveries SET due_at = $1, attempts = attempts + 1
                    WHERE (seq, created_at) IN (SELECT seq, created_at FROM deliveries WHERE \(condition) ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
                    AND (SELECT state FROM messages WHERE seq = deliveries.message_seq) IN (\(Lifecycle.beingSentSQL))
                    RETURNING seq
                    """, [.int(now + lease), .int(now), .int(count)] + (message.map { [.int($0)] } ?? [])).map { $0.int(0) }
            }
            guard !seqs.isEmpty else { return [] }
            // One read for the whole batch. A token is only ever read through the app that owns
            // both the message and the device: a device of another app reads as none. While an
            // endpoint may exist, what the sends' events name is read with it
            // (``ClaimedDelivery/sendFacts``).
            let facts = self.endpointsMayExist.load(ordering: .relaxed)
            return try connection.query(
                """
                SELECT \(Rows.claimedColumns)\(facts ? ", v.id, v.external_user_id, d.provider_id, m.app_id, m.id" : "")
                FROM deliveries d JOIN messages m ON m.seq = d.message_seq
                LEFT JOIN LATERAL (
                    SELECT token, active, deactivated_reason, apns_environment, id, external_user_id FROM devices WHERE seq = d.device_seq AND app_id = m.app_id
                ) v ON true
                WHERE d.seq = ANY($1::bigint[]) ORDER BY d.seq
                """, [.text(PostgresArray.bigints(seqs))]
            ).map { row in
                var delivery = Rows.claimed(row)
                if facts {
                    delivery.sendFacts = SendFacts(
                        appID: row.text(17), messageID: row.text(18), deliveryID: delivery.id, platform: row.text(4), deviceID: row.optionalText(14),
                        externalUserID: row.optionalText(15), storedProviderID: row.optionalText(16))
                }
                return delivery
            }
        }
    }

    /// The messages that take a share of a claim ($1 at most, $2 the time): those with something
    /// due now (those waiting for their moment, pacing, take none), apps taking turns: each app's
    /// oldest, then each app's second, and so on.
    ///
    /// A message's earliest due delivery is asked for, not whether one exists: `EXISTS` becomes a
    /// join, and one planned from a young week's statistics (every delivery due) hashed every
    /// delivery of the week, once per claim. The first in due order is one step down the
    /// `(message_seq, due_at)` index whatever the statistics say (a scan would have to sort them all).
    package static let sendingMessages = """
        SELECT seq FROM (
            SELECT seq, row_number() OVER (PARTITION BY app_id ORDER BY seq) AS turn FROM messages
            WHERE state IN (\(Lifecycle.beingSentSQL))
            AND (SELECT due_at FROM deliveries WHERE message_seq = messages.seq AND due_at <= $2 ORDER BY due_at LIMIT 1) IS NOT NULL
        ) AS sending ORDER BY turn, seq LIMIT $1
        """

    /// Records what happened to claimed deliveries, in one transaction of one or two statements
    /// (the events written with the deliveries' partition key, which their update returns; the
    /// devices' deactivations, when there are any), then the messages' completion after it
    /// (``completeAfterCommit(messageSeqs:now:)``).
    package func recordDeliveries(_ updates: [DeliveryUpdate], messageSeqs: Set<Int>, now: Int) async throws {
        let outcomes = Self.outcomes(updates)
        let events = RecordsetJSON.of(updates.lazy.filter { $0.state != .sent }) { update, json in
            json.field("seq", update.seq)
            json.field("event", update.event)
            json.field("detail", update.detail?.stored)
        }
        let deactivated = updates.compactMap(\.deactivateDevice)
        let deactivations = RecordsetJSON.of(deactivated) { device, json in
            json.field("seq", device.seq)
            json.field("reason", device.reason)
            json.field("at", device.at)
        }
        let sends = PostgresArray.bigints(updates.filter { $0.state == .sent }.map(\.seq))
        let sent = endpointsMayExist.load(ordering: .relaxed) ? WebhookSentRows(updates) : WebhookSentRows()
        let rows = Self.outboxRows(sent)
        try await pool.transaction { connection in
            let firsts = try connection.query(
                Self.record, [.text(outcomes), .int(now), .text(events), .text(sends), .text(rows.apps), .text(rows.counts), .text(rows.texts),
                              .int(sent.isWhole ? sent.count : -1)]
            ).map { $0.int(0) }
            if !firsts.isEmpty { try Self.recordSentEvents(connection, firsts, now: now, sent: sent) }
            if !deactivated.isEmpty {
                try connection.run(
                    """
                    UPDATE devices v SET active = 0, deactivated_reason = x.reason, deactivated_at = x.at, updated_at = $2
                    FROM jsonb_to_recordset($1::jsonb) AS x(seq bigint, reason text, at bigint) WHERE v.seq = x.seq AND v.active = 1
                    """, [.text(deactivations), .int(now)])
            }
        }
        await completeAfterCommit(messageSeqs: messageSeqs, now: now)
    }

    /// The record of a batch, in one statement: each delivery's outcome (`$1`, at `$2`), its history
    /// (`$3`), and its sends' `delivery.sent` events (`$4`, the sends' numbers): the rows the
    /// worker rendered (``WebhookSentRows``; `$5`, `$6`, `$7`: their apps, event counts and texts),
    /// stored as they are, for each app with an endpoint, when every send of the batch is in them
    /// (`$8`, else -1) and was a first send (decision 0037, "Sends in the record, on PostgreSQL").
    /// Otherwise it stores none and returns the first sends, for ``recordSentEvents(_:_:now:sent:)``.
    /// A send is a first send when its row had no `sent_at` before this statement: every part of
    /// one statement reads the rows as they were before it (its one snapshot), so `firsts` sees
    /// them unchanged by `updated`. A delivery recorded sent by two nodes at once (its lease
    /// ended while the first was sending) may have an event from each: it was sent twice.
    /// Without an endpoint anywhere, `firsts` reads nothing and the insert's check is not run
    /// (the planner checks each once).
    package static let record = """
        WITH firsts AS (
            SELECT d.seq FROM deliveries d
            WHERE EXISTS (SELECT 1 FROM webhook_endpoints) AND d.seq = ANY($4::bigint[]) AND d.sent_at IS NULL
        ), updated AS (
            UPDATE deliveries d SET
                state = CASE WHEN d.state IN (\(Lifecycle.replacedByOutcomeSQL)) THEN u.state ELSE d.state END,
                due_at = CASE WHEN d.state IN (\(Lifecycle.replacedByOutcomeSQL)) THEN u."dueAt" ELSE d.due_at END,
                provider_id = coalesce(u."providerID", d.provider_id),
                sent_at = CASE WHEN u.state = 'sent' THEN $2 ELSE d.sent_at END, updated_at = $2
            FROM jsonb_to_recordset($1::jsonb) AS u(seq bigint, state text, "dueAt" bigint, "providerID" text)
            WHERE d.seq = u.seq RETURNING d.seq, d.created_at
        ), history AS (
            INSERT INTO delivery_events (delivery_seq, delivery_created_at, event, at, detail)
            SELECT e.seq, updated.created_at, e.event, $2, e.detail
            FROM jsonb_to_recordset($3::jsonb) AS e(seq bigint, event text, detail text) JOIN updated ON updated.seq = e.seq
        ), whole AS (
            SELECT (SELECT count(*) FROM firsts) = $8 AS stored
        ), outbox AS (
            \(insertSentRows(at: "$2", apps: "$5", counts: "$6", texts: "$7", when: "(SELECT stored FROM whole)"))
        )
        SELECT seq FROM firsts WHERE NOT (SELECT stored FROM whole)
        """

    /// Inserts the outbox rows of a batch's sends (``WebhookSentRows``: the parameters of their
    /// apps, event counts and texts, as arrays), of apps with an endpoint, `when` it holds.
    package static func insertSentRows(at: String, apps: String, counts: String, texts: String, when: String = "true") -> String {
        """
        INSERT INTO webhook_outbox (app_id, type, at, count, events)
            SELECT r.app, '\(WebhookEventType.deliverySent)', \(at), r.count, r.events
            FROM unnest(\(apps)::text[], \(counts)::integer[], \(texts)::text[]) AS r(app, count, events)
            WHERE \(when) AND EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.app_id = r.app)
        """
    }

    /// The sends' events of a record that found some sends not first sends, or not all of them
    /// rendered (`firsts`: its first sends): the rows `sent` holds, kept to those sends, with the
    /// others read and rendered in the record's transaction (claimed while the node believed no
    /// endpoint existed: another node's first).
    package static func recordSentEvents(_ connection: PostgresConnection, _ firsts: [Int], now: Int, sent: WebhookSentRows) throws {
        var (kept, unread) = sent.firstSends(firsts, apps: nil)
        if !unread.isEmpty {
            let read = try connection.query(WebhookSQL.sendFacts(seqs: "= ANY($1::bigint[])"), [.text(PostgresArray.bigints(unread))]).map(Rows.sendFacts)
            kept = kept.adding(Dictionary(read, uniquingKeysWith: { $1 }))
        }
        let rows = outboxRows(kept)
        try connection.run(insertSentRows(at: "$1", apps: "$2", counts: "$3", texts: "$4"), [.int(now), .text(rows.apps), .text(rows.counts), .text(rows.texts)])
    }

    /// `sent`'s rows as array literals of their apps, event counts and texts.
    package static func outboxRows(_ sent: WebhookSentRows) -> (apps: String, counts: String, texts: String) {
        var apps = PostgresArray.Texts()
        var texts = PostgresArray.Texts()
        var counts: [Int] = []
        for row in sent.sorted {
            apps.append(row.app.utf8)
            texts.append(row.text.utf8)
            counts.append(row.count)
        }
        return (apps.literal, PostgresArray.bigints(counts), texts.literal)
    }

    /// The record's outcomes (`seq`, `state`, `dueAt`, `providerID`), one object an update.
    package static func outcomes(_ updates: [DeliveryUpdate]) -> String {
        RecordsetJSON.of(updates, bytesPerRow: 96) { update, json in
            json.field("seq", update.seq)
            json.field("state", update.state.rawValue)
            json.field("dueAt", update.dueAt)
            json.field("providerID", update.providerID)
        }
    }
}
