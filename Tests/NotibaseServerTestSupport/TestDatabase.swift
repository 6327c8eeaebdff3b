import Foundation
import Synchronization
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

/// Where a harness stores: SQLite in its temporary directory, or, when `NOTIBASE_TEST_DATABASE_URL`
/// names a PostgreSQL database, a schema of its own in it (script/test runs the in-process suites
/// once on each backend). Either way the test ends with the storage integrity check.
enum TestDatabase {
    static let postgresURL = ProcessInfo.processInfo.environment["NOTIBASE_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    static var isPostgres: Bool { postgresURL != nil }

    /// A store for one test, and what ends it.
    struct Opened: Sendable {
        var store: any Storage & RowCounting
        var finish: @Sendable () -> Void
        /// On PostgreSQL, the URL of the test's own schema (for a second connection or store).
        var url: String? = nil
    }

    /// `now` is the test's time, for which PostgreSQL makes the history's weeks (a test on its own
    /// clock must not find partitions made for the day it happens to run).
    /// With `plans`, the store records the plan of every statement it runs from then on (``QueryPlans``).
    static func open(directory: String, busyTimeout: Int32, now: Int = WallClock.system.milliseconds(), plans: QueryPlans? = nil) async throws -> Opened {
        guard let base = postgresURL else {
            let path = directory + "/notibase.sqlite"
            let store = try SQLiteStore(path: path, busyTimeout: busyTimeout)
            if let plans { await store.recordPlans(plans) }
            return Opened(store: store) {
                report { try SQLiteStore.integrityProblems(of: SQLiteConnection(path: path)) }
            }
        }
        let (url, drop) = try emptySchema(base)
        let store = try await PostgresStore(url: url, poolSize: 2, now: now)
        store.pool.plans.withLock { $0 = plans }
        return Opened(store: store, finish: {
            report { try PostgresStore.integrityProblems(of: PostgresConnection(url: url)) }
            drop()
        }, url: url)
    }

    /// A new empty schema in the PostgreSQL database `base` names: the URL that works in it, and
    /// what drops it.
    static func emptySchema(_ base: String) throws -> (url: String, drop: @Sendable () -> Void) {
        let schema = "t" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try PostgresConnection(url: base).execute("CREATE SCHEMA \(schema)")
        let url = base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
        return (url, { try? PostgresConnection(url: base).execute("DROP SCHEMA \(schema) CASCADE") })
    }

    /// A connection to a new SQLite database at `path`, migrated to `version` only, as
    /// ``postgres(_:atVersion:)``.
    static func sqlite(_ path: String, atVersion version: Int) throws -> SQLiteConnection {
        let old = try SQLiteConnection(path: path)
        for migration in Schema.migrations.prefix(version) { try old.execute(migration) }
        try old.execute("PRAGMA user_version = \(version)")
        return old
    }

    /// A connection to the PostgreSQL schema at `url`, migrated to `version` only: a database an
    /// older release wrote, for a migration test to watch it move on.
    static func postgres(_ url: String, atVersion version: Int) throws -> PostgresConnection {
        let old = try PostgresConnection(url: url)
        try old.execute("CREATE TABLE notibase_schema (version INTEGER NOT NULL)")
        for (index, migration) in PostgresSchema.migrations.prefix(version).enumerated() {
            try old.execute(migration)
            try old.run("INSERT INTO notibase_schema (version) VALUES ($1)", [.int(index + 1)])
        }
        return old
    }

    private static func report(_ check: () throws -> [String]) {
        do {
            let problems = try check()
            if !problems.isEmpty { Issue.record("the stored data is inconsistent: \(problems.joined(separator: "; "))") }
        } catch {
            Issue.record("the storage integrity check failed: \(error)")
        }
    }
}

/// How many rows a table holds, and a statement run as is, on either backend (tests only: what
/// no ``Storage`` method can do, such as leaving the state two racing writers can leave).
protocol RowCounting {
    func rowCount(_ table: String) async throws -> Int
    func runSQL(_ sql: String) async throws
}

extension SQLiteStore {
    func recordPlans(_ plans: QueryPlans) {
        connection.plans = plans
        readers.plans.withLock { $0 = plans }
    }
}

extension SQLiteStore: RowCounting {
    func rowCount(_ table: String) throws -> Int {
        try connection.first("SELECT count(*) FROM \(table)") { $0.int(0) } ?? 0
    }

    func runSQL(_ sql: String) throws {
        try connection.execute(sql)
    }
}

extension PostgresStore: RowCounting {
    func rowCount(_ table: String) async throws -> Int {
        try await pool.withConnection { try $0.query("SELECT count(*) FROM \(table)").first { $0.int(0) } ?? 0 }
    }

    func runSQL(_ sql: String) async throws {
        try await pool.withConnection { try $0.execute(sql) }
    }
}
