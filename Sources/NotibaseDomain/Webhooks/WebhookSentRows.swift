/// A batch's `delivery.sent` events as both stores write them: one row per app, its sends in
/// delivery order as lines (``WebhookSendLines``), rendered here in Swift and only here; a store
/// stores the text it is given (docs/decisions/0037, "Sends in lines").
///
/// The rows are made before the record's transaction, from what the claims read
/// (``DeliveryUpdate/sendFacts``) or what a read found (``SendFacts``). The record then finds which
/// sends were first sends (the update that finds `sent_at` unset): when all of them were, as
/// nearly always, the rows are stored as they are; otherwise ``firstSends(_:apps:)`` keeps those
/// sends' lines, and what no row holds is read and added (``adding(_:)``).
package struct WebhookSentRows: Sendable {
    /// An app's row: its sends' numbers in delivery order, and the row's text.
    package struct Row: Sendable, Equatable {
        package var seqs: [Int]
        package var text: String
    }

    /// Each app's row.
    package var rows: [String: Row] = [:]
    /// Sends claimed while their app had no endpoint, by app (``ClaimedDelivery/appWithoutEndpoint``):
    /// an event only if it has one by the record.
    package var withoutEndpoint: [String: [Int]] = [:]
    /// Sends neither in a row nor known to be of an app without an endpoint.
    package var unrendered: [Int] = []
    /// How many sends the batch holds.
    package var count = 0
    /// The provider's ID each send not in a row gave (its event names it, else the stored one).
    private var providerIDs: [Int: String] = [:]

    package init() {}

    /// The sends among `updates` rendered, in delivery order: those whose claim read their facts,
    /// and those `read` holds.
    package init(_ updates: [DeliveryUpdate], read: [Int: SendFacts] = [:]) {
        // By their places in `updates`, not copies of them: an update with its facts is a dozen
        // strings to retain and release (a tenth of a worker's time with an endpoint).
        var sends = updates.indices.filter { updates[$0].state == .sent }
        if !zip(sends, sends.dropFirst()).allSatisfy({ updates[$0].seq < updates[$1].seq }) { sends.sort { updates[$0].seq < updates[$1].seq } }
        count = sends.count
        // The row being written is kept aside while the sends are of its app, as nearly always
        // all of them are: no lookup by app for each send.
        var builders: [String: (seqs: [Int], row: WebhookSendLines.Row)] = [:]
        var current: (app: String, seqs: [Int], row: WebhookSendLines.Row)?
        for index in sends {
            let update = updates[index]
            guard let facts = update.sendFacts else {
                if let app = update.appWithoutEndpoint {
                    withoutEndpoint[app, default: []].append(update.seq)
                } else {
                    unrendered.append(update.seq)
                }
                if let providerID = update.providerID { providerIDs[update.seq] = providerID }
                continue
            }
            if current?.app != facts.appID {
                if let done = current { builders[done.app] = (done.seqs, done.row) }
                // The first app's row is made room for all of them: nearly always the only one.
                let capacity = current == nil ? sends.count : 0
                let built = builders.removeValue(forKey: facts.appID) ?? ([], WebhookSendLines.Row(capacity: capacity))
                current = (facts.appID, built.seqs, built.row)
                if capacity > 0 { current!.seqs.reserveCapacity(capacity) }
            }
            current!.seqs.append(update.seq)
            current!.row.append(facts, providerID: update.providerID)
        }
        if let done = current { builders[done.app] = (done.seqs, done.row) }
        for (app, built) in builders { rows[app] = Row(seqs: built.seqs, text: built.row.text) }
        if !read.isEmpty { self = adding(read) }
    }

    /// Whether every send of the batch is in a row.
    package var isWhole: Bool { withoutEndpoint.isEmpty && unrendered.isEmpty }

    /// The rows of `firsts` only (the sends the record found never sent before), of the apps in
    /// `apps` (nil: every app), and those of `firsts` no row holds (of an app in `apps`, when
    /// known), to be read. When every send was a first send, as nearly always, each row is kept
    /// as it was made. Rows made of no sends (``init()``: no endpoint was believed to exist) hold
    /// none of them: all are read.
    package func firstSends(_ firsts: [Int], apps: Set<String>?) -> (rows: WebhookSentRows, unread: [Int]) {
        guard count > 0 else { return (WebhookSentRows(), firsts) }
        let first: Set<Int>? = firsts.count == count ? nil : Set(firsts)
        var kept = WebhookSentRows()
        kept.providerIDs = providerIDs
        for (app, row) in rows where apps?.contains(app) ?? true {
            guard let first, !row.seqs.allSatisfy(first.contains) else {
                kept.rows[app] = row
                continue
            }
            let lines = zip(row.seqs, WebhookSendLines.lines(row.text) ?? []).filter { first.contains($0.0) }
            if !lines.isEmpty { kept.rows[app] = Row(seqs: lines.map(\.0), text: WebhookSendLines.row(lines.map(\.1))) }
        }
        let waiting = withoutEndpoint.filter { apps?.contains($0.key) ?? true }.flatMap(\.value) + unrendered
        let unread = first.map { first in waiting.filter(first.contains) } ?? waiting
        kept.count = kept.rows.values.reduce(0) { $0 + $1.seqs.count } + unread.count
        return (kept, unread)
    }

    /// These rows with the sends of `read` in them (each rendered from what was read, naming the
    /// provider's ID its update gave, else the stored one), each app's in delivery order.
    package func adding(_ read: [Int: SendFacts]) -> WebhookSentRows {
        var lines: [String: [(seq: Int, line: WebhookSendLines.Line)]] = [:]
        for (app, row) in rows {
            lines[app] = Array(zip(row.seqs, WebhookSendLines.lines(row.text) ?? []))
        }
        for (seq, facts) in read {
            var values: [UInt8] = []
            WebhookSendLines.appendValues(of: facts, providerID: providerIDs[seq], to: &values)
            lines[facts.appID, default: []].append((seq, WebhookSendLines.Line(messageID: facts.messageID, values: String(decoding: values, as: UTF8.self))))
        }
        var added = self
        added.rows = lines.mapValues { lines in
            let lines = lines.sorted { $0.seq < $1.seq }
            return Row(seqs: lines.map(\.seq), text: WebhookSendLines.row(lines.map(\.line)))
        }
        added.unrendered = unrendered.filter { read[$0] == nil }
        added.withoutEndpoint = withoutEndpoint.mapValues { $0.filter { read[$0] == nil } }.filter { !$0.value.isEmpty }
        return added
    }

    /// The rows to store, by app: app, event count, text.
    package var sorted: [(app: String, count: Int, text: String)] {
        rows.sorted { $0.key < $1.key }.map { ($0.key, $0.value.seqs.count, $0.value.text) }
    }
}
