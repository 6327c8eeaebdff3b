import NotibaseDomain
/// A connection as the statements written once for both backends use it (``SQLReadStore``): rows
/// read and statements run with values in a form both bind, and the backend's dialect for the
/// marks of its parameters and the few places where the SQL truly differs.
package protocol SQLExecutor {
    associatedtype Row: StoredRow & SendableMetatype

    var dialect: SQLDialect { get }
    func rows<T>(_ sql: String, _ values: [SQLParameter], _ map: (Row) throws -> T) throws -> [T]
    /// The first row, if any (a backend may stop reading there).
    func first<T>(_ sql: String, _ values: [SQLParameter], _ map: (Row) throws -> T) throws -> T?
    /// Runs a statement; how many rows it changed.
    func write(_ sql: String, _ values: [SQLParameter]) throws -> Int
}

extension SQLExecutor {
    /// The mark of parameter `n` (from 1) in this backend's SQL.
    package func p(_ n: Int) -> String { dialect.p(n) }

    /// The integer the first column of the first row holds (0 without a row).
    package func count(_ sql: String, _ values: [SQLParameter]) throws -> Int {
        try first(sql, values) { $0.int(0) } ?? 0
    }
}
