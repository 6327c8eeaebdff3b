import Foundation
import NotibaseCore
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

/// The statements the delivery path repeats once per batch keep to their indexes on a week's
/// partition that is young: one with no statistics yet, or statistics from its first rows that no
/// longer say what it holds. Before, a million-device send on PostgreSQL recorded each batch, read
/// each claim and asked which messages were due with a scan of every delivery of the week, a cost
/// that grew with every batch (docs/benchmarks/2026-12-07-lab-notes.md, "A young week's plans"). Only on
/// PostgreSQL (`NOTIBASE_TEST_DATABASE_URL`).
@Suite("A young week's plans", .enabled(if: TestDatabase.isPostgres))
struct YoungWeekPlanTests {
    static let week = "deliveries_\(HistoryPartitionTests.firstWeek)"
    static let devices = 3_000

    /// A harness whose app has `devices` devices, with autovacuum kept away from the week (so that
    /// what the test sees is what Notibase did, not a visit that happened to come).
    static func prepared() async throws -> (Harness, PostgresStore, TestApp) {
        let harness = try await Harness()
        let store = try HistoryPartitionTests.postgres(harness)
        let app = try await harness.createApp()
        try await harness.registerDevices(devices, in: app)
        try await store.pool.withConnection { connection in
            try connection.execute("ALTER TABLE \(week) SET (autovacuum_enabled = false, toast.autovacuum_enabled = false)")
            // A routine ANALYZE of the weeks made ahead, still empty (after a restore, say): it
            // leaves no statistics of their columns.
            try connection.execute("ANALYZE deliveries")
        }
        return (harness, store, app)
    }

    static func hasStatistics(_ store: PostgresStore) async throws -> Bool {
        try await store.pool.withConnection {
            try $0.query("SELECT count(*) FROM pg_stats WHERE tablename = $1 AND attname = 'seq' AND schemaname = current_schema()", [.text(week)])
                .first { $0.int(0) } ?? 0 > 0
        }
    }

    /// The tables a plan reads whole: the `Relation Name` of each sequential scan in its JSON.
    static func scanned(_ store: PostgresStore, _ statement: String, _ values: [SQLParameter]) async throws -> [String] {
        let plan = try await store.pool.withConnection { try $0.query("EXPLAIN (FORMAT JSON) " + statement, values).first { $0.text(0) } ?? "" }
        var tables: [String] = []
        func walk(_ node: JSONValue) {
            if node["Node Type"].string == "Seq Scan", let table = node["Relation Name"].string { tables.append(table) }
            for child in node["Plans"].array { walk(child) }
        }
        for entry in try JSONDecoder().decode(JSONValue.self, from: Data(plan.utf8)).array { walk(entry["Plan"]) }
        return tables
    }

    @Test func aWeeksFirstBatchGivesItStatisticsAndBatchLookupsTheIndex() async throws {
        let (harness, store, app) = try await Self.prepared()
        #expect(try await Self.hasStatistics(store) == false)
        _ = try await harness.send(app, #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#)
        try await harness.fanOut.runOnce()
        #expect(try await Self.hasStatistics(store), "no statistics of \(Self.week) after its first batches")
        // A recorded batch is looked up by its numbers: a few of the week's, through the key.
        let numbers = try await store.pool.withConnection {
            try $0.query("SELECT seq FROM deliveries ORDER BY seq LIMIT 20").map { String($0.int(0)) }
        }
        let lookup = "SELECT * FROM deliveries WHERE seq = ANY($1::bigint[])"
        #expect(try await Self.scanned(store, lookup, [.text("{" + numbers.joined(separator: ",") + "}")]).contains(Self.week) == false)
        // Asked again once the week has them, it does nothing.
        let again = try await store.pool.withConnection { try $0.query("SELECT notibase_analyze_history($1)", [.int(harness.time.wallClock.milliseconds())]).first { $0.text(0) } }
        #expect(again == "f")
    }

    @Test func completionAndSharesReadTheIndexWhenTheStatisticsAreStale() async throws {
        let (harness, store, app) = try await Self.prepared()
        let message = try await harness.send(app, #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#)
        // Fanned out and analyzed then (every delivery queued and due), then every delivery sent:
        // the statistics now say the opposite of what is there.
        try await harness.fanOut.runOnce()
        try await store.pool.withConnection { try $0.execute("ANALYZE \(Self.week)") }
        while try await harness.worker.runOnce() > 0 {}
        #expect(await harness.request("GET", "/v1/messages/\(message)", key: app.serverKey)["state"].string == "completed")
        let seq = try await store.pool.withConnection {
            try $0.query("SELECT seq FROM messages WHERE id = $1", [.text(message)]).first { $0.int(0) } ?? 0
        }
        let now = harness.time.wallClock.milliseconds()
        try await store.pool.withConnection { try $0.run("UPDATE messages SET state = 'sending' WHERE seq = $1", [.int(seq)]) }
        #expect(try await Self.scanned(store, CompletionSQL.postgresSome, [.int(now), .text("[\(seq)]")]).contains(Self.week) == false)
        #expect(try await Self.scanned(store, PostgresStore.sendingMessages, [.int(ClaimShares.messagesPerClaim), .int(now)]).contains(Self.week) == false)
        try await store.pool.withConnection { try $0.run("UPDATE messages SET state = 'completed' WHERE seq = $1", [.int(seq)]) }
    }
}

/// The node's own reckoning of a week (which week's statistics it asked for last) is the
/// database's: weeks start on Mondays at 00:00 UTC (`notibase_history_week`).
@Suite("History weeks")
struct HistoryWeekTests {
    @Test func aWeekStartsOnMondayAtMidnightUTC() {
        let monday = 1_799_625_600_000  // 2027-01-11T00:00:00Z
        #expect(PostgresSchema.historyWeek(monday) == monday)
        #expect(PostgresSchema.historyWeek(1_800_230_399_000) == monday)  // the Sunday after, 23:59:59
        #expect(PostgresSchema.historyWeek(1_800_230_400_000) == 1_800_230_400_000)  // the next Monday
        #expect(PostgresSchema.historyWeek(-86_400_000) == 345_600_000 - 604_800_000)  // before 1970-01-05
    }
}
