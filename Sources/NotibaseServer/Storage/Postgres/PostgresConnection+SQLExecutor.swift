/// The statements written once for both backends (``SQLExecutor``), run on a connection.
extension PostgresConnection: SQLExecutor {
    var dialect: SQLDialect { .postgres }

    func rows<T>(_ sql: String, _ values: [SQLParameter], _ map: (PostgresRow) throws -> T) throws -> [T] {
        try query(sql, values.map(\.postgres)).map(map)
    }

    func first<T>(_ sql: String, _ values: [SQLParameter], _ map: (PostgresRow) throws -> T) throws -> T? {
        try query(sql, values.map(\.postgres)).first(map)
    }

    func write(_ sql: String, _ values: [SQLParameter]) throws -> Int {
        try run(sql, values.map(\.postgres))
    }
}

extension SQLParameter {
    /// The value as PostgreSQL binds it.
    var postgres: PostgresValue {
        switch self {
        case .null: .null
        case .int(let value): .int(value)
        case .text(let value): .text(value)
        case .bytes(let value): .bytes(value)
        }
    }
}
