import Foundation
import NotibaseCore
import NotibaseSenders
import Testing
@testable import NotibaseServer
@testable import NotibaseDomain
@testable import NotibaseStore
@testable import NotibaseSQLite
@testable import NotibasePostgres
@testable import NotibaseHTTP
@testable import NotibaseOutbound
@testable import NotibaseWebhooks
@testable import NotibaseServices
@testable import NotibaseAPI
@testable import NotibaseDelivery
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// The delivery history in weekly partitions on PostgreSQL (PostgresSchema+History.swift): made
/// ahead, written into, dropped a week at a time by retention. Only where the tests run on
/// PostgreSQL (`NOTIBASE_TEST_DATABASE_URL`).
@Suite("History partitions", .enabled(if: TestDatabase.isPostgres))
struct HistoryPartitionTests {
    /// The harness's clock starts on Friday 2027-01-15 08:00 UTC: in the week of Monday 2027-01-11.
    static let firstWeek = "20270111"

    static func postgres(_ harness: Harness) throws -> PostgresStore { try #require(harness.store as? PostgresStore) }

    /// The partitions of `table`, by name.
    static func partitions(_ store: PostgresStore, of table: String) async throws -> [String] {
        try await store.pool.withConnection {
            try $0.query(
                "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY 1",
                [.text(table)]).map { $0.text(0) }
        }
    }

    /// Which partitions hold the rows of `table`.
    static func holders(_ store: PostgresStore, of table: String) async throws -> Set<String> {
        try await store.pool.withConnection { Set(try $0.query("SELECT DISTINCT tableoid::regclass::text FROM \(table)").map { $0.text(0) }) }
    }

    static let tables = ["deliveries", "delivery_events", "receipts"]

    static func receipt(_ harness: Harness, _ delivery: String, id: String = "r") -> String {
        #"{"id": "\#(id)", "deliveryId": "\#(delivery)", "event": "opened", "occurredAt": "2027-01-15T08:00:00Z", "signature": "\#(harness.signer.receiptSignature(deliveryID: delivery))"}"#
    }

    /// With retention off the task still runs, makes the weeks ahead, and removes nothing.
    @Test func withRetentionOffTheWeeksAheadAreStillMade() async throws {
        let harness = try await Harness()
        let store = try Self.postgres(harness)
        harness.advance(70 * 86_400)  // Friday 2027-03-26
        let retention = Retention(store: harness.store, clock: WallClock { harness.time.now }, logger: .silent, period: nil)
        #expect(try await retention.runOnce() == 0)
        let names = try await Self.partitions(store, of: "deliveries")
        for week in ["20270322", "20270426"] { #expect(names.contains("deliveries_\(week)"), "deliveries_\(week) in \(names)") }
    }

    @Test func theWeeksAheadExistAndTakeTheHistory() async throws {
        let harness = try await Harness()
        let store = try Self.postgres(harness)
        // This week and the weeks to 32 days ahead (the furthest sendAt, and two days more), and
        // the DEFAULT partition, for each table of the history.
        for table in Self.tables {
            let names = try await Self.partitions(store, of: table)
            for week in ["20270111", "20270118", "20270125", "20270201", "20270208", "20270215", "default"] {
                #expect(names.contains("\(table)_\(week)"), "\(table)_\(week) in \(names)")
            }
        }
        let app = try await harness.createApp()
        let (delivery, _) = try await harness.sentDelivery(app)
        #expect(await harness.request("POST", "/v1/receipts", key: app.clientKey, body: Self.receipt(harness, delivery)).status == 202)
        for table in Self.tables {
            #expect(try await Self.holders(store, of: table) == ["\(table)_\(Self.firstWeek)"])
        }

        // Past every partition made, a fan-out still writes: into the DEFAULT partition. Making
        // partitions then leaves that week to it (PostgreSQL refuses a partition for rows the
        // default holds) and makes the next.
        harness.advance(70 * 86_400)  // Friday 2027-03-26
        _ = try await harness.send(app, #"{"message": {"title": "Later"}, "audience": {"all": true}}"#)
        try await harness.deliverDue()
        #expect(try await Self.holders(store, of: "deliveries") == ["deliveries_\(Self.firstWeek)", "deliveries_default"])
        try await store.prepareHistory(now: WallClock { harness.time.now }.milliseconds())
        let names = try await Self.partitions(store, of: "deliveries")
        #expect(!names.contains("deliveries_20270322") && names.contains("deliveries_20270329"))
    }

    /// Several nodes starting at once make each week once, without an error.
    @Test func nodesStartingTogetherMakeTheWeeksOnce() async throws {
        let (url, drop) = try TestDatabase.emptySchema(try #require(TestDatabase.postgresURL))
        defer { drop() }
        let now = 1_800_000_000_000
        async let first = PostgresStore(url: url, poolSize: 1, now: now)
        async let second = PostgresStore(url: url, poolSize: 1, now: now)
        async let third = PostgresStore(url: url, poolSize: 1, now: now)
        let stores = try await [first, second, third]
        let names = try await Self.partitions(stores[0], of: "deliveries")
        #expect(names.filter { $0.hasPrefix("deliveries_2027") }.count >= 6)
        #expect(Set(names).count == names.count)
    }

    /// A week whose messages all finished before the period goes whole (its receipts, events and
    /// deliveries); a week still running, or held by a message still sending, stays, and with it
    /// every row of its messages until the week has ended before the period (then a finished
    /// message's rows in a held week go in batches).
    @Test func retentionDropsAnExpiredWeekAndKeepsNewerAndUnfinishedHistory() async throws {
        let harness = try await Harness(sender: RetentionTests.retryingDevice3())
        let store = try Self.postgres(harness)
        let app = try await harness.createApp()
        // The week of 2027-01-11: a message delivered, with a receipt.
        let (old, oldMessage) = try await harness.sentDelivery(app)
        #expect(await harness.request("POST", "/v1/receipts", key: app.clientKey, body: Self.receipt(harness, old)).status == 202)
        let device2 = try await harness.registerDevice(app, number: 2)
        // The week of 2027-01-18: a message still sending (device 3 keeps answering "retry"), and
        // one that completed.
        harness.advance(7 * 86_400)
        try await harness.registerDevice(app, number: 3)
        let sending = try await harness.send(app, #"{"message": {"title": "Still sending"}, "audience": {"all": true}}"#)
        let done = try await harness.send(app, #"{"message": {"title": "Done"}, "audience": {"deviceIds": ["\#(device2)"]}}"#)
        try await harness.deliverDue()
        #expect(await harness.request("GET", "/v1/messages/\(sending)", key: app.serverKey)["state"].string == "sending")
        #expect(await harness.request("GET", "/v1/messages/\(done)", key: app.serverKey)["state"].string == "completed")
        let before = try await Self.partitions(store, of: "deliveries").count

        // 31 days after the second week's messages: the first week ended before the period.
        harness.advance(31 * 86_400)
        let retention = Retention(store: harness.store, clock: WallClock { harness.time.now }, logger: .silent, period: .seconds(30 * 86_400), batchSize: 1)
        #expect(try await retention.runOnce() == 1)  // the old message's row, left without deliveries
        for table in Self.tables {
            #expect(!(try await Self.partitions(store, of: table)).contains("\(table)_\(Self.firstWeek)"))
        }
        // One week gone, the weeks ahead of the new time made.
        #expect(try await Self.partitions(store, of: "deliveries").count >= before - 1)
        #expect(await harness.request("GET", "/v1/messages/\(oldMessage)", key: app.serverKey).status == 404)
        #expect(await harness.request("GET", "/v1/deliveries/\(old)", key: app.serverKey).status == 404)
        #expect(try await store.rowCount("receipts") == 0)
        // The second week has not ended before the period: all of it stays.
        #expect(await harness.request("GET", "/v1/messages/\(sending)/deliveries", key: app.serverKey)["items"].array.count == 3)
        #expect(await harness.request("GET", "/v1/messages/\(done)/deliveries", key: app.serverKey)["items"].array.count == 1)

        // A week later it has, but the message still sending holds it: the week stays, the
        // finished message's rows go in batches, the sending one's all stay.
        harness.advance(7 * 86_400)
        #expect(try await retention.runOnce() == 2)  // the delivery (with its events), then its message
        #expect(try await Self.partitions(store, of: "deliveries").contains("deliveries_20270118"))
        #expect(await harness.request("GET", "/v1/messages/\(done)", key: app.serverKey).status == 404)
        let kept = await harness.request("GET", "/v1/messages/\(sending)/deliveries", key: app.serverKey)["items"].array
        #expect(kept.count == 3)
        #expect(try await retention.runOnce() == 0)
        #expect(try await store.integrityProblems().isEmpty)
    }

    /// A receipt's key includes its delivery's week, and the same receipt posted twice names the
    /// same delivery: it is still a duplicate, stored once.
    @Test func aReceiptPostedTwiceIsStillADuplicate() async throws {
        let harness = try await Harness()
        let store = try Self.postgres(harness)
        let app = try await harness.createApp()
        let (delivery, _) = try await harness.sentDelivery(app)
        #expect(await harness.request("POST", "/v1/receipts", key: app.clientKey, body: Self.receipt(harness, delivery)).status == 202)
        let again = await harness.request("POST", "/v1/receipts", key: app.clientKey, body: Self.receipt(harness, delivery))
        #expect(again.status == 200 && again["duplicate"].bool == true, "\(again.text)")
        #expect(try await store.rowCount("receipts") == 1)
        #expect(try await Self.holders(store, of: "receipts") == ["receipts_\(Self.firstWeek)"])
    }

    /// A database written before the partitions: its history moves into the weeks it belongs to,
    /// numbering goes on where it left off, and the data stays consistent.
    @Test func existingHistoryMovesIntoItsWeeks() async throws {
        let (url, drop) = try TestDatabase.emptySchema(try #require(TestDatabase.postgresURL))
        defer { drop() }
        let week = 7 * 86_400_000
        let monday = 1_799_625_600_000  // 2027-01-11 00:00 UTC
        let old = try PostgresConnection(url: url)
        try old.execute(PostgresSchema.migrations[0])
        try old.execute(
            """
            CREATE TABLE notibase_schema (version INTEGER NOT NULL); INSERT INTO notibase_schema VALUES (1);
            INSERT INTO apps (id, name, server_key_hash, client_key_hash, created_at) VALUES ('a', 'A', '\\x01', '\\x02', 0);
            INSERT INTO devices (id, app_id, platform, token, created_at, updated_at) VALUES ('dev', 'a', 'ios', 't', 0, 0);
            INSERT INTO messages (id, app_id, content, audience, state, send_at, audience_size, created_at, finished_at)
            VALUES ('m', 'a', '{}', '{"all":true}', 'completed', \(monday), 1, \(monday), \(monday + week + 1));
            INSERT INTO deliveries (id, message_seq, device_seq, platform, state, created_at, updated_at)
            VALUES ('d1', 1, 1, 'ios', 'opened', \(monday + 1), \(monday + 1)), ('d2', 1, 1, 'ios', 'sent', \(monday + week + 1), \(monday + week + 1)),
                   ('d3', 1, 1, 'ios', 'sent', \(monday + week + 1), \(monday + week + 1));
            INSERT INTO delivery_events (delivery_seq, event, at) VALUES (1, 'opened', \(monday + 2)), (2, 'sent', \(monday + week + 2));
            INSERT INTO receipts (app_id, id, delivery_seq, event, received_at) VALUES ('a', 'r', 1, 'opened', \(monday + 2));
            DELETE FROM deliveries WHERE id = 'd3';
            """)
        let store = try await PostgresStore(url: url, poolSize: 1, now: monday)
        #expect(try await Self.holders(store, of: "deliveries") == ["deliveries_20270111", "deliveries_20270118"])
        #expect(try await Self.holders(store, of: "delivery_events") == ["delivery_events_20270111", "delivery_events_20270118"])
        #expect(try await Self.holders(store, of: "receipts") == ["receipts_20270111"])
        #expect(try await store.rowCount("deliveries") == 2)
        #expect(try await store.integrityProblems().isEmpty)
        // The numbers go on after the last one given (3), not after the last one kept.
        let next = try await store.pool.withConnection {
            try $0.query(
                "INSERT INTO deliveries (id, message_seq, platform, state, created_at, updated_at) VALUES ('d4', 1, 'ios', 'sent', $1, $1) RETURNING seq",
                [.int(monday + 5)]).first { $0.int(0) }
        }
        #expect(next == 4)
        let record = try await store.delivery(appID: "a", id: "d1")
        #expect(record?.events.map(\.event) == ["opened"])
        let receipt = Receipt(id: "r", deliveryID: "d1", event: .opened, occurredAt: Date(milliseconds: monday + 2))
        #expect(try await store.applyReceipt(appID: "a", receipt, detail: DeliveryEventDetail(), limit: 5, now: monday + 3) == .duplicate(deliveryID: "d1"))
    }
}
