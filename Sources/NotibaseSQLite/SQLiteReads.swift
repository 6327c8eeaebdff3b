package import Synchronization
package import NotibaseDomain
package import NotibaseStore

/// A connection to the database as the statements written once for both backends use it
/// (``SQLExecutor``): a reader's (``SQLiteReaders``), for the API, or the writer's, inside a
/// transaction of ``SQLiteStore``. SQLite's own reads (an audience) are in their store files.
package struct SQLiteReads: SQLExecutor {
    package let connection: SQLiteConnection

    package var dialect: SQLDialect { .sqlite }

    package func rows<T>(_ sql: String, _ values: [SQLParameter], _ map: (SQLiteStatement) throws -> T) throws -> [T] {
        try connection.query(sql, values, map)
    }

    package func first<T>(_ sql: String, _ values: [SQLParameter], _ map: (SQLiteStatement) throws -> T) throws -> T? {
        try connection.first(sql, values, map)
    }

    package func write(_ sql: String, _ values: [SQLParameter]) throws -> Int {
        try connection.run(sql, values)
    }
}

/// Connections that only read, each on a thread of its own (``ConnectionLanes``), beside the
/// store's one writing connection. In WAL mode a reader never waits for the writer nor holds it
/// up, so one tenant's expensive reads (an audience counted over its tags, a long list) take a
/// reader, never the writer that every app's sends, claims and records queue for; and a read
/// waits for a write only when every reader is busy. A read for an app names it, and one app holds
/// every reader but one at most (``LaneTurns``), so another app's read never waits behind a
/// tenant's floods of expensive reads. A read sees every transaction committed before it starts,
/// so a request reads back what it wrote.
///
/// Reads whose cost grows with the app's devices or a message's audience, not with what they
/// return (an audience counted, a funnel), are bulk reads: they have readers of their own, whose
/// threads run below every other thread of the server (nice ``bulkNiceness``), so on a busy
/// machine the CPU goes first to requests, sends and the reads bounded by their answer, and a
/// tenant's counts take what is left (decision 0042).
package final class SQLiteReaders: Sendable {
    /// How many: one per core here leaves the writer its own, and a tenant's floods of reads
    /// queue behind each other rather than behind the writer.
    package static let count = 3
    /// How many readers for bulk reads (one app holds one of them at most while another waits).
    package static let bulkCount = 2
    /// The bulk readers' nice value: a thread at 10 is given about a tenth of the CPU of one at
    /// 0 when both want it (Linux's weights, 110 against 1,024), and all of it when alone.
    package static let bulkNiceness: Int32 = 10

    private let lanes: ConnectionLanes<SQLiteConnection>
    private let bulkLanes: ConnectionLanes<SQLiteConnection>
    /// When set (tests), every reader records its statements' plans.
    package let plans = Mutex<QueryPlans?>(nil)

    package init(path: String, busyTimeout: Int32) throws {
        let open: (Int) throws -> SQLiteConnection = { _ in
            let connection = try SQLiteConnection(path: path, busyTimeout: busyTimeout)
            try connection.execute("PRAGMA query_only = 1")
            return connection
        }
        lanes = try ConnectionLanes(label: "nb-reader", size: Self.count, open: open)
        bulkLanes = try ConnectionLanes(label: "nb-bulk", size: Self.bulkCount, niceness: Self.bulkNiceness, open: open)
    }

    /// Runs `body` on a reader; `app` names the app it reads for (see ``LaneTurns``).
    package func read<T: Sendable>(app: String? = nil, _ body: @escaping @Sendable (SQLiteReads) throws -> T) async throws -> T {
        try await read(on: lanes, app: app, body)
    }

    /// Runs `body`, a read whose cost grows with the app's size, on a bulk reader.
    package func bulkRead<T: Sendable>(app: String? = nil, _ body: @escaping @Sendable (SQLiteReads) throws -> T) async throws -> T {
        try await read(on: bulkLanes, app: app, body)
    }

    /// How many reads wait for a bulk reader (for tests).
    package var bulkWaitingCount: Int { bulkLanes.waitingCount }

    private func read<T: Sendable>(
        on lanes: ConnectionLanes<SQLiteConnection>, app: String?, _ body: @escaping @Sendable (SQLiteReads) throws -> T
    ) async throws -> T {
        let plans = self.plans.withLock { $0 }
        return try await lanes.withConnection(app: app) { connection in
            connection.plans = plans
            return try body(SQLiteReads(connection: connection))
        }
    }
}

/// What the ``Storage`` protocol reads, answered by a reader.
extension SQLiteStore: SQLReadStore {
    /// The writer's connection, for reads inside its own transactions.
    package var reads: SQLiteReads { SQLiteReads(connection: connection) }

    package nonisolated func reading<T: Sendable>(app: String?, bulk: Bool, _ body: @escaping @Sendable (SQLiteReads) throws -> T) async throws -> T {
        try await bulk ? readers.bulkRead(app: app, body) : readers.read(app: app, body)
    }

    /// On the writer, in its thread.
    package func writing<T: Sendable>(_ body: @escaping @Sendable (SQLiteReads) throws -> T) throws -> T {
        try body(reads)
    }

    /// One node: nothing to tell.
    package func changingApps<T: Sendable>(_ body: @escaping @Sendable (SQLiteReads) throws -> (T, changed: Bool)) throws -> T {
        try connection.transaction { try body(reads).0 }
    }

    package nonisolated func audienceByTimeZone(appID: String, _ audience: Audience) async throws -> [String?: Int] {
        try await readers.bulkRead(app: appID) { try $0.audienceByTimeZone(appID: appID, audience) }
    }
}
