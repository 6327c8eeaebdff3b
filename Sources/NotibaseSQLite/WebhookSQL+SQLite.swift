import NotibaseDomain
package import NotibaseStore
extension WebhookSQL.Value {
    /// The value as SQLite binds it.
    package var sqlite: SQLValue {
        switch self {
        case .null: .null
        case .int(let value): .int(value)
        case .text(let value): .text(value)
        }
    }
}
