package import Synchronization
package import NotibaseDomain
import NotibaseStore

/// The server's storage on one embedded SQLite database (WAL): apps, devices, messages, the
/// delivery queue and its history.
///
/// An actor: its connection never leaves it. SQLite's own SQL stays in this type and its
/// extensions, one per resource, beside the statements both backends share (``SQLReadStore``,
/// ``SQLStore``); the rest of the server sees only the ``Storage`` protocol.
package actor SQLiteStore: Storage {
    package let connection: SQLiteConnection
    /// The API's reads, on connections of their own (``SQLiteReaders``).
    package nonisolated let readers: SQLiteReaders

    /// Copies the write-ahead log into the database in the background, for a serving store.
    package nonisolated let checkpointer: Checkpointer?

    /// The writer's own thread (``WriterExecutor``).
    private nonisolated let executor = WriterExecutor(name: "nb-writer")
    package nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Whether the database may have a webhook endpoint: set when one is made, and by each feed
    /// pass from what it finds. A hint for speed only (``recordDeliveries(_:messageSeqs:now:)``
    /// renders the sends' events beforehand while it is set); what is written never depends on it.
    package nonisolated let endpointsMayExist = Atomic<Bool>(true)

    /// The apps with an endpoint, as the writer last read them (at start, at each feed pass, and
    /// as an endpoint is made): only their claims read what their sends' events name
    /// (``ClaimedDelivery/sendFacts``), so one tenant's endpoint costs the others' sends nothing.
    /// A hint for speed only, like ``endpointsMayExist``: the record asks the endpoints again.
    package var appsWithEndpoints: Set<String> = []

    /// Opens (creating and migrating if needed) the database at `path`. With a `checkpointLogger`
    /// the store checkpoints its write-ahead log in the background until ``close()``.
    package init(path: String, busyTimeout: Int32 = 5_000, checkpointLogger: Logger? = nil) throws {
        connection = try SQLiteConnection(path: path, busyTimeout: busyTimeout)
        try Schema.migrate(connection)
        readers = try SQLiteReaders(path: path, busyTimeout: busyTimeout)
        appsWithEndpoints = Set(try connection.query("SELECT DISTINCT app_id FROM webhook_endpoints") { $0.text(0) })
        endpointsMayExist.store(!appsWithEndpoints.isEmpty, ordering: .relaxed)
        checkpointer = checkpointLogger.map { Checkpointer(path: path, logger: $0) }
    }

    /// Every request, claim and record waits for the batch in progress: with 250 ms, a one-device
    /// message took about a second to go out during a million-device fan-out; with 60 ms, a third
    /// of that, at the same fan-out speed (docs/benchmarks/2026-12-07-lab-notes.md).
    package nonisolated var fanOutBatchTarget: Duration { .milliseconds(60) }

    /// One writer: one group commit at a time.
    package nonisolated var groupCommitsAtOnce: Int { 1 }

    /// One node uses an SQLite file alone: nothing is announced.
    package nonisolated func listen(_ wake: @escaping @Sendable (AnnouncedWork) -> Void) -> Bool { false }

    /// Stops the background checkpoints, writes what the WAL holds into the main file and
    /// truncates the WAL (on clean shutdown).
    package func close() async throws {
        await checkpointer?.stop()
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

}
