import NotibaseDomain
/// A store whose reads and simple writes are written once above its SQL (``SQLExecutor``): the
/// statements are in extensions of ``SQLExecutor`` (`Apps+SQL.swift`, `Devices+SQL.swift`, …),
/// the roles' requirements in extensions of the roles for any store of this kind; a backend gives
/// only connections to run them on.
package protocol SQLReadStore: Sendable {
    associatedtype Executor: SQLExecutor

    /// Runs `body` on a connection that reads. `app` names the app it reads for, `bulk` says its
    /// cost grows with the app's size rather than with its answer (a backend may give such reads
    /// connections of their own).
    func reading<T: Sendable>(app: String?, bulk: Bool, _ body: @escaping @Sendable (Executor) throws -> T) async throws -> T

    /// Runs `body`, one statement or reads beside the writes, on a connection that writes (each
    /// statement committed on its own).
    func writing<T: Sendable>(_ body: @escaping @Sendable (Executor) throws -> T) async throws -> T

    /// Runs `body` in one transaction on a connection that writes; when `body` says it `changed`
    /// an app (its settings, keys or credentials), the other nodes sharing the database are told
    /// so at the commit (PostgreSQL's announcements; SQLite has no other node).
    func changingApps<T: Sendable>(_ body: @escaping @Sendable (Executor) throws -> (T, changed: Bool)) async throws -> T

    /// ``changingApps(_:)`` for a transaction that may make or delete webhook endpoints (one made
    /// or deleted, an app deleted with its own): PostgreSQL then sets its webhook triggers for the
    /// endpoints it leaves (``PostgresStore``). By default, ``changingApps(_:)`` itself.
    func changingEndpoints<T: Sendable>(_ body: @escaping @Sendable (Executor) throws -> (T, changed: Bool)) async throws -> T
}

extension SQLReadStore {
    package func reading<T: Sendable>(app: String? = nil, _ body: @escaping @Sendable (Executor) throws -> T) async throws -> T {
        try await reading(app: app, bulk: false, body)
    }

    package func changingEndpoints<T: Sendable>(_ body: @escaping @Sendable (Executor) throws -> (T, changed: Bool)) async throws -> T {
        try await changingApps(body)
    }

    /// Runs `body` in one transaction on a connection that writes, no app changed.
    package func inOneTransaction<T: Sendable>(_ body: @escaping @Sendable (Executor) throws -> T) async throws -> T {
        try await changingApps { (try body($0), changed: false) }
    }
}
