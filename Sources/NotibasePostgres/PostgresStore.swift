import NotibaseSenders
package import Synchronization
package import NotibaseDomain
import NotibaseStore

/// The server's storage on PostgreSQL, for several identical nodes on one database: the same
/// ``Storage`` guarantees as ``SQLiteStore``, with the database enforcing them between nodes
/// (row locks, `FOR UPDATE SKIP LOCKED` claims, unique keys). PostgreSQL's own SQL stays in this
/// type and its extensions, one per resource, beside the statements both backends share
/// (``SQLReadStore``, ``SQLStore``).
package final class PostgresStore: Storage, SQLReadStore {
    package let pool: PostgresPool
    private let url: String
    /// The channel nodes announce work on: one per schema, so deployments sharing a database in
    /// schemas of their own do not wake each other.
    package let channel: String
    private let listener = Mutex<PostgresListener?>(nil)
    /// When this node last asked whether a week's deliveries have statistics (by the week's start).
    package let statisticsAsked = Mutex<[Int: ContinuousClock.Instant]>([:])
    /// Whether the database had an endpoint when this node last looked (each feed pass, and as
    /// it makes one): while it may, the claims read what the sends' events name and the workers
    /// render them (``ClaimedDelivery/sendFacts``). Only a speed-up: a record renders in SQL what
    /// came without (a claim made while this was false, another node's first endpoint since).
    package let endpointsMayExist = Atomic<Bool>(true)

    /// Connects (`size` connections), migrates the schema under an advisory lock, and makes the
    /// history partitions for the weeks ahead of `now` (retention makes them again as time goes on).
    package init(url: String, poolSize: Int = 8, now: Int = WallClock.system.milliseconds()) async throws {
        self.url = url
        pool = try PostgresPool(url: url, size: poolSize)
        channel = try await pool.withConnection { connection in
            try PostgresSchema.migrate(connection)
            try Self.makePartitions(connection, now: now)
            return "notibase." + (try connection.query("SELECT current_schema()").first { $0.text(0) } ?? "public")
        }
    }

    package func reading<T: Sendable>(app: String?, bulk: Bool, _ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await pool.withConnection(body)
    }

    package func writing<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await pool.withConnection(body)
    }

    package func changingApps<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> (T, changed: Bool)) async throws -> T {
        try await pool.transaction { connection in
            let (result, changed) = try body(connection)
            if changed { try self.announce(.apps, on: connection) }
            return result
        }
    }

    package func close() async throws {
        listener.withLock { $0?.stop() }
    }

    /// Only the fan-out waits for its batch (the rest have connections of their own); with 60 ms,
    /// batches of a few hundred with a commit each made a million-device send 34% slower.
    package var fanOutBatchTarget: Duration { .milliseconds(250) }

    /// Posts' groups on up to half the pool's connections at once: they overlap everything but
    /// the update of an app's stored bytes at their end, and leave the rest of the pool to reads,
    /// claims and records.
    package var groupCommitsAtOnce: Int { max(1, pool.size / 2) }

    package func listen(_ wake: @escaping @Sendable (AnnouncedWork) -> Void) -> Bool {
        let started = PostgresListener(url: url, channel: channel, wake: wake)
        listener.withLock { listener in
            listener?.stop()
            listener = started
        }
        started.start()
        return true
    }

    /// Announces `work` to every listening node when the current transaction commits (and not at
    /// all if it rolls back); PostgreSQL folds repeats within a transaction into one.
    package func announce(_ work: AnnouncedWork, on connection: PostgresConnection) throws {
        try connection.run("SELECT pg_notify($1, $2)", [.text(channel), .text(work.rawValue)])
    }

    /// The rules no constraint states (PostgreSQL enforces every foreign key itself).
    package func integrityProblems() async throws -> [String] {
        try await pool.withConnection { try Self.integrityProblems(of: $0) }
    }

    /// ``integrityProblems()`` on any connection to a Notibase database (a test's own, say).
    package static func integrityProblems(of connection: PostgresConnection) throws -> [String] {
        try connection.brokenIntegrityRules()
    }
}
