import NotibaseDomain
package import NotibaseStore
/// The statements written once for both backends (``SQLExecutor``), run on a connection.
extension PostgresConnection: SQLExecutor {
    package var dialect: SQLDialect { .postgres }

    package func rows<T>(_ sql: String, _ values: [SQLParameter], _ map: (PostgresRow) throws -> T) throws -> [T] {
        try query(sql, values.map(\.postgres)).map(map)
    }

    package func first<T>(_ sql: String, _ values: [SQLParameter], _ map: (PostgresRow) throws -> T) throws -> T? {
        try query(sql, values.map(\.postgres)).first(map)
    }

    package func write(_ sql: String, _ values: [SQLParameter]) throws -> Int {
        try run(sql, values.map(\.postgres))
    }
}

extension SQLParameter {
    /// The value as PostgreSQL binds it.
    package var postgres: PostgresValue {
        switch self {
        case .null: .null
        case .int(let value): .int(value)
        case .text(let value): .text(value)
        case .bytes(let value): .bytes(value)
        }
    }
}
