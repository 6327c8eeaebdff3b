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
@testable import NotibaseServerTestSupport

/// Every statement on the request and delivery paths of the everyday shape (registrations,
/// one-device and one-user messages, their sends, receipts and reads) reaches `devices`,
/// `messages` and the delivery history through an index bounded by what it returns, never a scan
/// of a table nor of an app's whole device index (docs/decisions/0014). Read from the plans the
/// database itself reports for the statements the server really ran (``QueryPlans``), on SQLite
/// and, in the PostgreSQL pass, on PostgreSQL.
@Suite("Query plans")
struct QueryPlanTests {
    @Test func theEverydayPathsReachEveryTableThroughAnIndexBoundedByWhatTheyReturn() async throws {
        let plans = QueryPlans()
        // Sent with the app's stored credentials, as with the real senders: their reads, the send's
        // warnings and the health the workers write are on these paths too.
        let harness = try await Harness(plans: plans, storedCredentials: true)
        let app = try await harness.createApp()
        #expect(await harness.request("PUT", "/v1/apps/\(app.id)/credentials/apns", key: app.serverKey, body: TestCredentials.apns()).status == 200)
        let other = try await harness.createApp("Other")
        // Before any device or message is written: each statement's plan is recorded when it first runs.
        if TestDatabase.isPostgres { try await Self.history(harness.store, app: app.id) }
        try await harness.registerDevices(50, in: other, first: 1_000)
        let device = try await harness.registerDevice(app, number: 1)
        try await harness.registerDevice(app, number: 2, extra: #", "externalUserId": "user-2", "tags": ["vip"]"#)
        let batch = #"{"devices": [{"platform": "ios", "token": "\#(Harness.token(3))", "externalUserId": "user-3"}]}"#
        #expect(await harness.request("POST", "/v1/devices/batch", key: app.serverKey, body: batch).status == 200)
        #expect(await harness.request("GET", "/v1/devices/\(device)", key: app.serverKey).status == 200)
        // The Live Activity registry: the reports of an iPhone and its activity read back.
        let token = String(repeating: "ab", count: 40)
        for report in [
            #"{"deviceToken": "\#(Harness.token(1))", "kind": "pushToStartToken", "attributesType": "DeliveryAttributes", "token": "\#(token)"}"#,
            #"{"deviceToken": "\#(Harness.token(1))", "kind": "updateToken", "attributesType": "DeliveryAttributes", "activityId": "order-1", "token": "\#(token)"}"#,
            #"{"deviceToken": "\#(Harness.token(1))", "kind": "ended", "activityId": "order-1"}"#,
        ] {
            #expect(await harness.request("POST", "/v1/live-activity-reports", key: app.clientKey, body: report).status == 202)
        }
        #expect(await harness.request("GET", "/v1/live-activities/order-1?total=true", key: app.serverKey).status == 200)

        let toDevice = try await harness.send(app, #"{"message": {"title": "Code", "body": "123456"}, "audience": {"deviceIds": ["\#(device)"]}}"#)
        let toUser = try await harness.send(app, #"{"message": {"title": "Shipped"}, "audience": {"externalUserIds": ["user-2", "user-3"]}}"#)
        try await harness.deliverDue()
        let later = try await harness.send(
            app, #"{"message": {"title": "Later"}, "audience": {"deviceIds": ["\#(device)"]}, "sendAt": "2027-01-16T08:00:00Z"}"#)
        #expect(await harness.request("POST", "/v1/messages/\(later)/cancel", key: app.serverKey).status == 200)
        // The fan-out's sweep for what an interrupted cancel left (once a second).
        _ = try await harness.store.endAbandonedDeliveries(now: Int(Harness.start.timeIntervalSince1970 * 1000) + 60_000)

        let deliveries = await harness.request("GET", "/v1/messages/\(toDevice)/deliveries", key: app.serverKey)
        let delivery = try #require(deliveries["items"][0]["id"].string)
        let signature = Signer(secretKey: Harness.secretKey).receiptSignature(deliveryID: delivery)
        let receipt = #"{"id": "r1", "deliveryId": "\#(delivery)", "messageId": "\#(toDevice)", "event": "opened", "occurredAt": "2027-01-15T08:00:00Z", "signature": "\#(signature)"}"#
        #expect(await harness.request("POST", "/v1/receipts", key: app.clientKey, body: receipt).status == 202)
        for path in ["/v1/messages/\(toDevice)", "/v1/messages/\(toUser)", "/v1/messages", "/v1/messages/\(toUser)/deliveries", "/v1/devices/\(device)/deliveries"] {
            #expect(await harness.request("GET", path, key: app.serverKey).status == 200, "\(path)")
        }
        #expect(await harness.request("GET", "/v1/messages/\(toUser)", key: app.serverKey)["counts"]["byState"]["sent"].int == 2)

        let recorded = plans.all
        #expect(recorded.count > 10, "only \(recorded.count) statements were recorded")
        // The lookups this suite is about were among them.
        #expect(recorded.contains { $0.sql.contains("wanted.value") && $0.sql.contains("devices.id") })
        #expect(recorded.contains { $0.sql.contains("wanted.value") && $0.sql.contains("external_user_id") })
        #expect(recorded.contains { $0.sql.contains("UPDATE credentials SET health_state") }, "the credentials' health was written")
        // The messages due for fan-out are found by their send time, not among every scheduled one.
        let due = try #require(recorded.first { $0.sql.contains("send_at <=") })
        #expect(due.plan.contains("messages_pending"), "\(due.plan)")
        // PostgreSQL reads a table of a few rows (an empty week's partition, the few events this
        // test made) whole, whatever its indexes, and that plan says nothing of a large one. SQLite's
        // plans do not depend on the rows.
        var problems: [PlanCheck.Problem] = []
        for problem in recorded.flatMap(PlanCheck.problems) {
            if TestDatabase.isPostgres, try await harness.store.rowCount(problem.relation) < 1_000 { continue }
            problems.append(problem)
        }
        #expect(problems.isEmpty, "\(problems.map(\.description).joined(separator: "\n\n"))")
    }

    /// PostgreSQL plans from its statistics: the app made large (100,000 devices) with a week of
    /// history, analyzed, so that an app-wide path looks as costly to the planner as it is in such
    /// an app (SQLite plans from its indexes alone: the server never analyzes it).
    static func history(_ store: any Storage & RowCounting, app: String) async throws {
        let at = Int(Harness.start.timeIntervalSince1970 * 1000) - 86_400_000
        try await store.runSQL("""
            INSERT INTO devices (id, app_id, platform, token, created_at, updated_at)
            SELECT 'history-device-' || n, '\(app)', 'ios', lpad(to_hex(n + 1000000), 64, '0'), \(at), \(at) FROM generate_series(1, 100000) AS n;
            INSERT INTO messages (id, app_id, content, audience, state, send_at, audience_size, created_at, finished_at)
            SELECT 'history-message-' || n, '\(app)', '{"message": {"title": "T"}}', '{"all": true}', 'completed', \(at), 10, \(at), \(at + 1000)
            FROM generate_series(1, 5000) AS n;
            INSERT INTO deliveries (id, message_seq, device_seq, platform, state, attempts, sent_at, created_at, updated_at)
            SELECT 'history-delivery-' || n, m.seq, d.seq, 'ios', 'sent', 1, \(at + 500), \(at), \(at + 500) FROM generate_series(1, 100000) AS n
            JOIN messages m ON m.id = 'history-message-' || (n % 5000 + 1) JOIN devices d ON d.id = 'history-device-' || (n % 100000 + 1);
            INSERT INTO delivery_events (delivery_seq, delivery_created_at, event, at)
            SELECT seq, created_at, 'opened', \(at + 600) FROM deliveries WHERE id LIKE 'history-delivery-%';
            ANALYZE devices, messages, deliveries, delivery_events;
            """)
        // Only this test's tables (its schema): a bare ANALYZE takes every table of the database in
        // one transaction, and deadlocked with another test making webhook triggers in its schema.
    }

    /// The rule the test applies, tested on plans written by hand: each must be able to fail.
    @Test func theCheckFindsAScanAnAppsWholeDeviceIndexAndAnIndexWithoutCondition() {
        #expect(PlanCheck.problems(.init(sql: "SELECT seq FROM messages WHERE state = ?", plan: "SCAN messages")).count == 1)
        #expect(PlanCheck.problems(.init(sql: "SELECT 1 FROM deliveries d WHERE d.due_at < 5", plan: "SCAN d")).count == 1)
        #expect(PlanCheck.problems(.init(sql: "SELECT 1 FROM devices WHERE app_id = ?", plan: "SEARCH devices USING INDEX devices_app (app_id=? AND active=?)")).count == 1)
        #expect(PlanCheck.problems(.init(sql: "SELECT 1 FROM messages WHERE seq = ?", plan: "SEARCH messages USING INTEGER PRIMARY KEY (rowid=?)")).isEmpty)
        #expect(PlanCheck.problems(.init(sql: "SELECT value FROM json_each(?)", plan: "SCAN json_each VIRTUAL TABLE INDEX 1:")).isEmpty)
        let seqScan = #"[{"Plan": {"Node Type": "Seq Scan", "Relation Name": "deliveries_2027w03"}}]"#
        #expect(PlanCheck.problems(.init(sql: "SELECT 1 FROM deliveries", plan: seqScan)).count == 1)
        let wholeIndex = #"[{"Plan": {"Node Type": "Limit", "Plans": [{"Node Type": "Index Scan", "Relation Name": "messages", "Index Name": "messages_app"}]}}]"#
        #expect(PlanCheck.problems(.init(sql: "SELECT 1 FROM messages", plan: wholeIndex)).count == 1)
        let bounded = #"[{"Plan": {"Node Type": "Index Scan", "Relation Name": "messages", "Index Name": "messages_pkey", "Index Cond": "(seq = 1)"}}]"#
        #expect(PlanCheck.problems(.init(sql: "SELECT 1 FROM messages", plan: bounded)).isEmpty)
    }
}

/// What makes a plan unbounded: a scan of a guarded table (SQLite `SCAN`, PostgreSQL `Seq Scan`
/// or an index scan without an index condition), or the app's whole device index (`devices_app`,
/// which is bounded by the app, not by the devices a statement returns).
enum PlanCheck {
    static func guarded(_ table: String) -> Bool {
        ["devices", "messages"].contains(table) || ["deliveries", "delivery_events", "receipts"].contains { table == $0 || table.hasPrefix($0 + "_") }
    }

    struct Problem: CustomStringConvertible {
        var relation: String
        var what: String
        var plan: QueryPlans.Plan
        var description: String { "\(what) in:\n\(plan.sql)\nplan:\n\(plan.plan)" }
    }

    static func problems(_ plan: QueryPlans.Plan) -> [Problem] {
        let found = plan.plan.hasPrefix("[") ? postgresProblems(plan.plan) : sqliteProblems(plan)
        return found.map { Problem(relation: $0.relation, what: $0.what, plan: plan) }
    }

    private static func sqliteProblems(_ plan: QueryPlans.Plan) -> [(relation: String, what: String)] {
        let aliases = aliases(in: plan.sql)
        return plan.plan.split(separator: "\n").compactMap { line in
            if line.contains("devices_app") { return ("devices", "the app's whole device index") }
            let words = line.split(separator: " ")
            guard words.first == "SCAN", words.count > 1 else { return nil }
            let table = aliases[String(words[1])] ?? String(words[1])
            return guarded(table) ? (table, "a scan of \(table)") : nil
        }
    }

    /// `FROM table alias`, `JOIN table AS alias`: alias → table.
    private static func aliases(in sql: String) -> [String: String] {
        var aliases: [String: String] = [:]
        let words = sql.split(whereSeparator: { $0.isWhitespace || $0 == "," || $0 == "(" || $0 == ")" }).map(String.init)
        for (index, word) in words.enumerated() where ["FROM", "JOIN", "UPDATE", "INTO"].contains(word.uppercased()) && index + 2 < words.count {
            let alias = words[index + 2].uppercased() == "AS" && index + 3 < words.count ? words[index + 3] : words[index + 2]
            aliases[alias] = words[index + 1]
        }
        return aliases
    }

    private static func postgresProblems(_ json: String) -> [(relation: String, what: String)] {
        guard let root = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] else { return [("devices", "an unreadable plan")] }
        var problems: [(relation: String, what: String)] = []
        func visit(_ node: [String: Any]) {
            let type = node["Node Type"] as? String ?? ""
            if let relation = node["Relation Name"] as? String, guarded(relation) {
                if node["Index Name"] as? String == "devices_app" {
                    problems.append((relation, "the app's whole device index"))
                } else if type == "Seq Scan" {
                    problems.append((relation, "a scan of \(relation)"))
                } else if (type == "Index Scan" || type == "Index Only Scan") && node["Index Cond"] == nil {
                    problems.append((relation, "a whole index of \(relation) (no index condition)"))
                }
            }
            for child in node["Plans"] as? [[String: Any]] ?? [] { visit(child) }
        }
        for entry in root { if let plan = entry["Plan"] as? [String: Any] { visit(plan) } }
        return problems
    }
}
