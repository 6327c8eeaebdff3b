/// A failure of the database itself (not of the request): disk full, corruption, a bug in a query.
/// The API answers 500 and logs it; the description never holds request data.
public struct StorageError: Error, CustomStringConvertible {
    private enum Kind {
        case sqlite(code: Int32, message: String)
        case corrupt(String)
    }

    private let kind: Kind

    static func sqlite(code: Int32, message: String) -> StorageError { StorageError(kind: .sqlite(code: code, message: message)) }

    static func corrupt(_ what: String) -> StorageError { StorageError(kind: .corrupt(what)) }

    /// The SQLite result code, when SQLite reported the failure.
    var sqliteCode: Int32? {
        if case .sqlite(let code, _) = kind { return code }
        return nil
    }

    public var description: String {
        switch kind {
        case .sqlite(let code, let message): "SQLite error \(code): \(message)"
        case .corrupt(let what): "stored data is not readable: \(what); restore from a backup"
        }
    }
}
