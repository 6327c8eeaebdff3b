package import NotibaseDomain
/// The database itself, as a node starts, runs and stops on it: its settings, the announcements
/// of other nodes, its integrity and its end. The wiring (``Server``, ``ServerParts``) uses it.
package protocol BackendStore: Sendable {
    func setting(_ name: String) async throws -> [UInt8]?
    func insertSettingIfAbsent(_ name: String, _ value: [UInt8]) async throws -> Bool
    func replaceSetting(_ name: String, _ value: [UInt8]) async throws
    /// Ends what the backend runs in the background and leaves the database tidy (on shutdown).
    func close() async throws
    /// Calls `wake` whenever a node sharing the database announces work, until ``close()``;
    /// returns whether the backend carries such announcements (PostgreSQL's LISTEN/NOTIFY). Only
    /// a wake-up: the nodes still look for work on their own. A backend one node uses alone
    /// (SQLite) has nothing to hear and returns false.
    func listen(_ wake: @escaping @Sendable (AnnouncedWork) -> Void) -> Bool
    /// What is wrong with the stored data (orphans, dangling references, rules no constraint
    /// states); empty when all is well. Reads only.
    func integrityProblems() async throws -> [String]
}
