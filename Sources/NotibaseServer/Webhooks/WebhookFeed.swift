import NotibaseSenders

/// The feed's pure part (docs/decisions/0037): what one pass read from the delivery history and
/// from the outbox, merged in the order the rows committed, and what the stream receives from it.
enum WebhookFeed {
    /// A row read by the feed: where it sorts, and the event it becomes (nil: none, but the
    /// cursor moves past it).
    struct Row: Sendable {
        /// The order of commit: the transaction's ID on PostgreSQL; on SQLite (one writer) the
        /// delivery history's number the row comes after.
        var order: Int
        /// 0 for the delivery history, 1 for the outbox: within one order the history comes first.
        var kind: Int
        var seq: Int
        var appID: String
        var endpointID: String?
        var type: String?
        var at: Int
        var data: WebhookEventData

        var key: Key { Key(order: order, kind: kind, seq: seq) }
    }

    struct Key: Comparable, Sendable {
        var order: Int
        var kind: Int
        var seq: Int

        static func < (a: Key, b: Key) -> Bool { (a.order, a.kind, a.seq) < (b.order, b.kind, b.seq) }
    }

    /// The rows of both sources (each in its own order, each read up to `limit`) in one order, up
    /// to where both are known: a source that filled its `limit` may have more after its last row,
    /// so nothing after that row is taken yet.
    static func merge(history: [Row], outbox: [Row], limit: Int) -> [Row] {
        var bound: Key?
        for rows in [history, outbox] where rows.count >= limit {
            if let last = rows.last?.key, bound.map({ last < $0 }) ?? true { bound = last }
        }
        return (history + outbox).filter { row in bound.map { row.key <= $0 } ?? true }.sorted { $0.key < $1.key }
    }

    /// A new event for the stream, with its stable ID.
    struct NewEvent: Sendable {
        var id: String
        var appID: String
        var endpointID: String?
        var type: String
        var at: Int
        var data: String
    }

    /// The events `rows` become, for the apps that have endpoints.
    static func events(_ rows: [Row], apps: Set<String>) throws -> [NewEvent] {
        let kept = rows.filter { $0.type != nil && apps.contains($0.appID) }
        let ids = try Identifier.make(times: kept.map(\.at))
        return try zip(kept, ids).map { row, id in
            NewEvent(id: id, appID: row.appID, endpointID: row.endpointID, type: row.type!, at: row.at, data: try StoredJSON.encode(row.data))
        }
    }
}

/// An event's `data`: the app, message, delivery, device and external user ID where they exist,
/// and its details (a delivery history entry's: the render report, the provider's reason, the
/// action ID and reply text; a message's or device's reason).
struct WebhookEventData: Codable, Sendable, Equatable {
    var appId: String
    var messageId: String?
    var deliveryId: String?
    var deviceId: String?
    var externalUserId: String?
    var platform: String?
    var reason: String?
    var audienceSize: Int?
    var details: DeliveryEventDetail?
}
