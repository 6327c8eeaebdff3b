import NotibaseDomain
/// A value bound to a statement written once for both backends (``SQLExecutor``), in a form either
/// binds.
package enum SQLParameter {
    case null
    case int(Int)
    case text(String)
    case bytes([UInt8])

    package static func optionalInt(_ value: Int?) -> SQLParameter { value.map(SQLParameter.int) ?? .null }
    package static func optionalText(_ value: String?) -> SQLParameter { value.map(SQLParameter.text) ?? .null }
    package static func flag(_ value: Bool) -> SQLParameter { .int(value ? 1 : 0) }
}
