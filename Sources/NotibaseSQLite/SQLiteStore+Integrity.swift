import NotibaseStore
extension SQLiteStore {
    /// What is wrong with the stored data: SQLite's own check of the file, every foreign key, and
    /// the rules no constraint can state (``IntegrityRules``). Empty when all is well. Reads only.
    package func integrityProblems() throws -> [String] {
        try Self.integrityProblems(of: connection)
    }

    /// ``integrityProblems()`` on any connection to a Notibase database (a test's own, say).
    package static func integrityProblems(of connection: SQLiteConnection) throws -> [String] {
        var problems: [String] = []
        for line in try connection.query("PRAGMA quick_check", [], { $0.text(0) }) where line != "ok" {
            problems.append("database file: \(line)")
        }
        let broken = try connection.query("PRAGMA foreign_key_check") { row in
            "\(row.text(0)) row \(row.optionalInt(1).map(String.init) ?? "?") points at a missing \(row.text(2)) row"
        }
        problems += broken.prefix(50)
        return problems + (try SQLiteReads(connection: connection).brokenIntegrityRules())
    }
}
