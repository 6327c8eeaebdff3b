import NotibaseDomain
/// Where the SQL of the two backends differs in the statements written once (``SQLExecutor``):
/// the marks of parameters, and the functions each has for JSON.
package enum SQLDialect: Sendable {
    case sqlite
    case postgres

    /// The mark of parameter `n` (from 1): `?n` or `$n`.
    package func p(_ n: Int) -> String {
        switch self {
        case .sqlite: "?\(n)"
        case .postgres: "$\(n)"
        }
    }

    /// The numbers of a JSON array (the parameter marked `mark`), as a subquery for `IN`.
    package func numbers(in mark: String) -> String {
        switch self {
        case .sqlite: "(SELECT value FROM json_each(\(mark)))"
        case .postgres: "(SELECT value::bigint FROM jsonb_array_elements_text(\(mark)::jsonb))"
        }
    }

    /// Whether a device's tags (a JSON array of strings) hold the text marked `mark`.
    package func tagsContain(_ mark: String) -> String {
        switch self {
        case .sqlite: "EXISTS (SELECT 1 FROM json_each(devices.tags) WHERE value = \(mark))"
        case .postgres: "tags ? \(mark)"
        }
    }

    /// Whether a device's token starts with the text marked `mark`.
    package func tokenStarts(with mark: String) -> String {
        switch self {
        case .sqlite: "substr(token, 1, length(\(mark))) = \(mark)"
        case .postgres: "starts_with(token, \(mark))"
        }
    }

    /// What ends a `SELECT` whose rows stay locked until the commit: PostgreSQL's `FOR UPDATE`;
    /// nothing in SQLite, whose one writer runs its transactions one after the other.
    package var lockingRows: String {
        switch self {
        case .sqlite: ""
        case .postgres: " FOR UPDATE"
        }
    }

    /// The first characters of `text`, as many as the number marked `length`.
    package func prefix(of text: String, length: String) -> String {
        switch self {
        case .sqlite: "substr(\(text), 1, \(length))"
        case .postgres: "left(\(text), \(length))"
        }
    }

    /// ``lockingRows`` for a join's rows of `table` alone: PostgreSQL's `FOR UPDATE OF table`.
    package func lockingRows(of table: String) -> String {
        self == .postgres ? " FOR UPDATE OF \(table)" : ""
    }

    /// What ends a `SELECT` whose rows of `table` are locked until the commit, those another
    /// transaction holds left out: PostgreSQL's `FOR UPDATE OF … SKIP LOCKED`; nothing in SQLite.
    package func skippingLockedRows(of table: String) -> String {
        switch self {
        case .sqlite: ""
        case .postgres: "FOR UPDATE OF \(table) SKIP LOCKED"
        }
    }

    /// The length in bytes of a text column: PostgreSQL's `octet_length`, SQLite's `length` of it
    /// as a blob (of a text, `length` counts characters).
    package func byteLength(_ column: String) -> String {
        switch self {
        case .sqlite: "length(CAST(\(column) AS BLOB))"
        case .postgres: "octet_length(\(column))"
        }
    }

    /// The larger of two values: SQLite's `max` of several arguments is PostgreSQL's `greatest`.
    package func greatest(_ first: String, _ second: String) -> String {
        switch self {
        case .sqlite: "max(\(first), \(second))"
        case .postgres: "greatest(\(first), \(second))"
        }
    }
}
