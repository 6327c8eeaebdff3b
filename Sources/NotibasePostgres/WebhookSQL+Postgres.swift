import NotibaseDomain
package import NotibaseStore
extension WebhookSQL.Value {
    /// The value as PostgreSQL binds it.
    package var postgres: PostgresValue {
        switch self {
        case .null: .null
        case .int(let value): .int(value)
        case .text(let value): .text(value)
        }
    }
}
