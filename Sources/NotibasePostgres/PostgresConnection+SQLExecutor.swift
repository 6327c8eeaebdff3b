package import NotibaseStore
/// The statements written once for both backends (``SQLExecutor``), run on a connection.
extension PostgresConnection: SQLExecutor {
    package var dialect: SQLDialect { .postgres }

    package func rows<T>(_ sql: String, _ values: [SQLParameter], _ map: (PostgresRow) throws -> T) throws -> [T] {
        try query(sql, values).map(map)
    }

    package func first<T>(_ sql: String, _ values: [SQLParameter], _ map: (PostgresRow) throws -> T) throws -> T? {
        try query(sql, values).first(map)
    }

    package func write(_ sql: String, _ values: [SQLParameter]) throws -> Int {
        try run(sql, values)
    }
}
