import NotibaseCore
import NotibaseSenders
package import NotibaseDomain

/// The feed's pure part (docs/decisions/0037): what one pass read from the delivery history and
/// from the outbox, merged in the order the rows committed, and what the stream receives from it.
package enum WebhookFeed {
    /// A row read by the feed: where it sorts, and the event it becomes (nil: none, but the
    /// cursor moves past it).
    package struct Row: Sendable {
        /// The order of commit: the transaction's ID on PostgreSQL; on SQLite (one writer) the
        /// delivery history's number the row comes after.
        package var order: Int
        /// 0 for the delivery history, 1 for the outbox: within one order the history comes first.
        package var kind: Int
        package var seq: Int
        package var appID: String
        package var endpointID: String?
        package var type: String?
        package var at: Int
        package var data: WebhookEventData
        /// A batch's sends, `count` of them, as lines (``WebhookSendLines``, rendered in Swift by
        /// ``WebhookSentRows``), copied into the stream as they are; nil: the one event `data` says.
        package var lines: (count: Int, text: String)? = nil
        /// An outbox row whose lines were left in the database, not read (`lines`' text is
        /// empty): PostgreSQL's feed copies them into the stream in SQL (``NewEvent/copiedFrom``).
        package var linesInOutbox = false

        package var key: Key { Key(order: order, kind: kind, seq: seq) }
    }

    package struct Key: Comparable, Sendable {
        package var order: Int
        package var kind: Int
        package var seq: Int

        package static func < (a: Key, b: Key) -> Bool { (a.order, a.kind, a.seq) < (b.order, b.kind, b.seq) }
    }

    /// The rows of both sources (each in its own order, each read up to `limit` rows, the outbox
    /// also up to `limit` events: ``outboxRows(order:sort:condition:limit:)``) in one order, up to where both are known:
    /// a source that filled its `limit` may have more after its last row, so nothing after that
    /// row is taken yet.
    package static func merge(history: [Row], outbox: [Row], limit: Int) -> [Row] {
        var bound: Key?
        let outboxFull = outbox.count >= limit || outbox.reduce(0) { $0 + ($1.lines?.count ?? 1) } >= limit
        for (rows, full) in [(history, history.count >= limit), (outbox, outboxFull)] where full {
            if let last = rows.last?.key, bound.map({ last < $0 }) ?? true { bound = last }
        }
        return (history + outbox).filter { row in bound.map { row.key <= $0 } ?? true }.sorted { $0.key < $1.key }
    }

    /// How many events `rows` hold (a row of several counts each): what a pass says it looked
    /// at, so a caller that feeds while passes are full keeps up with rows of a thousand sends.
    package static func eventCount(_ rows: [Row]) -> Int { rows.reduce(0) { $0 + ($1.lines?.count ?? 1) } }

    /// The outbox rows one pass reads, with their `order` first (`condition` chooses them, `sort`
    /// orders them, parameter `limit` is the pass's): the first `limit` rows, and of those only as
    /// many as hold `limit` events (at least one row), so that a pass's memory stays bounded
    /// whatever a row holds.
    package static func outboxRows(order: String, sort: String, condition: String, limit: String, columns: String = Rows.webhookOutboxColumns) -> String {
        """
        SELECT \(order), seq, \(columns) FROM webhook_outbox WHERE seq IN (
            SELECT seq FROM (SELECT seq, count, sum(count) OVER (ORDER BY \(sort)) AS upto FROM webhook_outbox WHERE \(condition)
            ORDER BY \(sort) LIMIT \(limit)) AS firsts WHERE upto - count < \(limit))
        ORDER BY \(sort)
        """
    }

    /// A new row of the stream: one event, its `data` JSON, or `count` sends of one time as lines
    /// (``WebhookSendLines``), the first with the stable ID `id` and the others with IDs made from
    /// it (``eventID(_:_:)``).
    package struct NewEvent: Sendable {
        package var id: String
        package var appID: String
        package var endpointID: String?
        package var type: String
        package var at: Int
        package var data: String
        package var count = 1
        /// The outbox row whose lines are this row's `data`, copied by the database (`data` is
        /// then empty): ``Row/linesInOutbox``.
        package var copiedFrom: Int? = nil

        package init(id: String, appID: String, endpointID: String? = nil, type: String, at: Int, data: String, count: Int = 1, copiedFrom: Int? = nil) {
            self.id = id
            self.appID = appID
            self.endpointID = endpointID
            self.type = type
            self.at = at
            self.data = data
            self.count = count
            self.copiedFrom = copiedFrom
        }
    }

    /// The stream's rows `rows` become, for the apps that have endpoints.
    package static func events(_ rows: [Row], apps: Set<String>) throws -> [NewEvent] {
        let kept = rows.filter { $0.type != nil && apps.contains($0.appID) }
        let ids = try Identifier.make(times: kept.map(\.at))
        return try zip(kept, ids).map { row, id in
            NewEvent(
                id: id, appID: row.appID, endpointID: row.endpointID, type: row.type!, at: row.at,
                data: try row.lines?.text ?? StoredJSON.encode(row.data), count: row.lines?.count ?? 1,
                copiedFrom: row.linesInOutbox ? row.seq : nil)
        }
    }

    /// A `delivery.sent` event's `data` as the feed's encoder writes ``WebhookEventData`` (keys
    /// sorted, what is nil left out; `details` always, empty without a provider ID).
    package static func sentData(
        appID: String, deliveryID: String, providerID: String?, deviceID: String?, externalUserID: String?, messageID: String, platform: String?
    ) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        member("{", "appId", appID, to: &bytes)
        member(",", "deliveryId", deliveryID, to: &bytes)
        bytes.append(contentsOf: #","details":{"#.utf8)
        member("", "providerId", providerID, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        member(",", "deviceId", deviceID, to: &bytes)
        member(",", "externalUserId", externalUserID, to: &bytes)
        member(",", "messageId", messageID, to: &bytes)
        member(",", "platform", platform, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `"key":"value"` after `separator`, or nothing when `value` is nil.
    private static func member(_ separator: String, _ key: String, _ value: String?, to bytes: inout [UInt8]) {
        guard let value else { return }
        bytes.append(contentsOf: separator.utf8)
        JSONWriter.appendString(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        JSONWriter.appendString(value, to: &bytes)
    }

    /// The ID of event `index` (from 0) of a stream row whose first event's ID is `first`: its last
    /// 48 bits plus `index` (modulo 2^48), so each event keeps one ID across reads, retries and
    /// replays, and IDs stay UUIDs that rows made apart (74 random bits each) do not share.
    package static func eventID(_ first: String, _ index: Int) -> String {
        EventIDs(first)[index]
    }

    /// ``eventID(_:_:)`` of every event of a row: the first ID read once, each other written
    /// straight into its 36 bytes.
    package struct EventIDs {
        private let first: String
        private let head: [UInt8]
        private let tail: UInt64?

        package init(_ first: String) {
            self.first = first
            let utf8 = Array(first.utf8)
            head = Array(utf8.prefix(24))
            tail = utf8.count == 36 ? UInt64(first.suffix(12), radix: 16) : nil
        }

        package subscript(index: Int) -> String {
            guard index > 0, let tail else { return first }
            var value = (tail &+ UInt64(index)) & 0xffff_ffff_ffff
            // Written in place: one is made for every event of a large send.
            return String(unsafeUninitializedCapacity: 36) { id in
                _ = id.initialize(fromContentsOf: head)
                for position in stride(from: 35, through: 24, by: -1) {
                    let digit = UInt8(value & 0xf)
                    id[position] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
                    value >>= 4
                }
                return 36
            }
        }
    }

    /// A stream row as read: its number is its last event's, and it holds one event, its `data`
    /// JSON, or `count` sends as lines (``WebhookSendLines``) of app `appID`: the one format a row
    /// of several events has.
    package struct StreamRow: Sendable {
        package var last: Int
        package var id: String
        package var type: String
        package var at: Int
        package var data: String
        package var count: Int
        package var appID = ""

        /// Its events, numbered up to ``last``.
        package var events: [WebhookEventRecord] { events(after: Int.min, through: nil, most: Int.max) }

        /// Its events numbered after `after` and up to `through`, at most `most` of them: only
        /// those are made (a row of a thousand sends is some 300 KB of text, and a read often
        /// wants its end, or its start).
        package func events(after: Int, through: Int?, most: Int) -> [WebhookEventRecord] {
            let firstSeq = last - count + 1
            let start = after < firstSeq ? 0 : after - firstSeq + 1
            let end = min(count, (through ?? last) - firstSeq + 1, start + max(0, min(most, count)))
            guard start < end else { return [] }
            let ids = EventIDs(id)
            if WebhookSendLines.isLines(data) {
                let lines = WebhookSendLines.Parsed(data, appID: appID, start..<end)
                return (0..<lines.count).map { line in
                    WebhookEventRecord(seq: firstSeq + start + line, id: ids[start + line], type: type, at: at, line: line, of: lines)
                }
            }
            return [WebhookEventRecord(seq: last, id: id, type: type, at: at, data: data)]
        }
    }

    /// Up to `limit` events after `after` (and up to `through`), read from rows `fetch` returns
    /// in order (the rows after a number that end after it, at most a count): a row may hold many
    /// events, so it asks for one row first and then for as many as the events still wanted
    /// need at that row's size.
    package static func read(after: Int, through: Int?, limit: Int, fetch: (_ after: Int, _ rows: Int) throws -> [StreamRow]) rethrows -> [WebhookEventRecord] {
        var events: [WebhookEventRecord] = []
        var cursor = after
        var rows = 1
        while events.count < limit {
            let fetched = try fetch(cursor, rows)
            for row in fetched {
                events += row.events(after: after, through: through, most: limit - events.count)
            }
            guard fetched.count == rows, let last = fetched.last, through.map({ last.last < $0 }) ?? true else { break }
            cursor = last.last
            rows = max(1, min(limit - events.count, (limit - events.count) / max(1, last.count) + 1))
        }
        return events
    }
}

/// An event's `data`: the app, message, delivery, device and external user ID where they exist,
/// and its details (a delivery history entry's: the render report, the provider's reason, the
/// action ID and reply text; a message's or device's reason).
package struct WebhookEventData: Codable, Sendable, Equatable {
    package var appId: String
    package var messageId: String?
    package var deliveryId: String?
    package var deviceId: String?
    package var externalUserId: String?
    package var platform: String?
    package var reason: String?
    package var audienceSize: Int?
    package var details: DeliveryEventDetail?
}
