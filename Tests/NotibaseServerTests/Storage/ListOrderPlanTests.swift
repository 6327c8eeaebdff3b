import Foundation
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
@testable import NotibaseServerTestSupport

/// A page of a message's or a device's delivery log, oldest or newest first, is read through an
/// index that holds the deliveries in `seq` order under the message or the device, never by
/// sorting all of them: on SQLite no temporary B-tree, on PostgreSQL no Sort node. PostgreSQL
/// plans from its statistics (and rightly sorts the twenty deliveries it expects of a message), so
/// there the lists read are a message's and a device's of 30,000 deliveries, in a week of history
/// (``QueryPlanTests/history(_:app:)``), analyzed.
@Suite("List order plans")
struct ListOrderPlanTests {
    @Test func deliveryLogPagesReadAnIndexInOrderNeverASort() async throws {
        let plans = QueryPlans()
        let harness = try await Harness(plans: plans)
        let app = try await harness.createApp()
        let device: String
        let message: String
        if TestDatabase.isPostgres {
            try await QueryPlanTests.history(harness.store, app: app.id)
            (device, message) = try await Self.large(harness.store, app: app.id)
        } else {
            device = try await harness.registerDevice(app, number: 1)
            message = try await harness.send(app, #"{"message": {"title": "x"}, "audience": {"deviceIds": ["\#(device)"]}}"#)
            try await harness.deliverDue()
        }
        for list in ["/v1/messages/\(message)/deliveries", "/v1/devices/\(device)/deliveries", "/v1/messages"] {
            for query in ["", "?order=newest", "?order=newest&cursor=1000000&state=sent", "?order=oldest&state=sent"] {
                #expect(await harness.request("GET", list + query, key: app.serverKey).status == 200, "\(list)\(query)")
            }
        }
        // Each list's statements, with and without a state, in both orders.
        let pages = plans.all.filter {
            ($0.sql.hasPrefix(Rows.deliveryQuery) && $0.sql.contains("ORDER BY d.seq")) || ($0.sql.contains("FROM messages WHERE app_id") && $0.sql.contains("ORDER BY seq"))
        }
        #expect(pages.filter { $0.sql.contains("d.seq DESC") }.count == 4, "\(pages.map(\.sql))")
        #expect(pages.filter { $0.sql.contains("d.seq LIMIT") }.count == 4, "\(pages.map(\.sql))")
        #expect(pages.filter { $0.sql.contains("FROM messages") }.count == 2, "\(pages.map(\.sql))")
        for page in pages {
            if TestDatabase.isPostgres {
                #expect(!page.plan.contains(#""Node Type": "Sort""#), "\(page.sql)\n\(page.plan)")
                #expect(!page.plan.contains(#""Node Type": "Seq Scan""#), "\(page.sql)\n\(page.plan)")
                // Bounded by the message or the device, not a walk of every delivery in `seq` order
                // (the history's messages are all this app's: walking them in order is right).
                guard page.sql.hasPrefix(Rows.deliveryQuery) else { continue }
                let key = page.sql.contains("d.message_seq =") ? "message_seq =" : "device_seq ="
                let conditions = Self.indexConditions(page.plan, of: "deliveries")
                #expect(!conditions.isEmpty && conditions.allSatisfy { $0.contains(key) }, "\(page.sql)\n\(page.plan)")
            } else {
                #expect(!page.plan.contains("TEMP B-TREE"), "\(page.sql)\n\(page.plan)")
                #expect(["deliveries_message_seq", "deliveries_device", "messages_app"].contains { page.plan.contains($0) }, "\(page.sql)\n\(page.plan)")
            }
        }
    }

    /// A message of 30,000 deliveries, all to one device of the history, analyzed: its ID and the device's.
    static func large(_ store: any Storage & RowCounting, app: String) async throws -> (device: String, message: String) {
        let at = Int(Harness.start.timeIntervalSince1970 * 1000) - 86_400_000
        try await store.runSQL("""
            INSERT INTO messages (id, app_id, content, audience, state, send_at, audience_size, created_at, finished_at)
            VALUES ('large-message', '\(app)', '{"message": {"title": "T"}}', '{"all": true}', 'completed', \(at), 30000, \(at), \(at + 1000));
            INSERT INTO deliveries (id, message_seq, device_seq, platform, state, attempts, sent_at, created_at, updated_at)
            SELECT 'large-delivery-' || n, m.seq, d.seq, 'ios', 'sent', 1, \(at + 500), \(at), \(at + 500) FROM generate_series(1, 30000) AS n
            JOIN messages m ON m.id = 'large-message' JOIN devices d ON d.id = 'history-device-1';
            ANALYZE messages, deliveries;
            """)
        return ("history-device-1", "large-message")
    }

    /// The index conditions of every index scan of `table` (or its partitions) in a PostgreSQL
    /// plan (`EXPLAIN (FORMAT JSON)`).
    static func indexConditions(_ json: String, of table: String) -> [String] {
        guard let root = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] else { return ["unreadable"] }
        var conditions: [String] = []
        func visit(_ node: [String: Any]) {
            let type = node["Node Type"] as? String ?? ""
            let relation = node["Relation Name"] as? String ?? node["Index Name"] as? String ?? ""
            if type.hasPrefix("Index") || type == "Bitmap Index Scan", relation == table || relation.hasPrefix(table + "_") {
                conditions.append(node["Index Cond"] as? String ?? "none")
            }
            for child in node["Plans"] as? [[String: Any]] ?? [] { visit(child) }
        }
        for entry in root { if let plan = entry["Plan"] as? [String: Any] { visit(plan) } }
        return conditions
    }
}
