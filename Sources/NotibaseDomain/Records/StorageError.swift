/// A failure of the database itself (not of the request), in the server's own terms: the API and
/// the workers decide what to do from the ``Kind``, never from a backend's codes. The description
/// never holds request data.
package struct StorageError: Error, CustomStringConvertible {
    /// What the failure means for whoever called.
    package enum Kind: Sendable, Equatable {
        /// The database cannot be reached or is busy (locked, restarting, out of space for now):
        /// the same call may succeed later. The API answers 503 with `Retry-After`.
        case unavailable
        /// The write contradicts what is stored (a constraint): retrying the same call fails
        /// the same way.
        case conflict
        /// What is stored cannot be read: restore from a backup.
        case corrupt
    }

    package let kind: Kind
    private let detail: String

    /// The backend's own code, for the log: SQLite's result code or PostgreSQL's SQLSTATE.
    package let backendCode: Int32?
    package let sqlState: String?

    package init(_ kind: Kind, _ detail: String, backendCode: Int32? = nil, sqlState: String? = nil) {
        self.kind = kind
        self.detail = detail
        self.backendCode = backendCode
        self.sqlState = sqlState
    }

    /// A conflict with a concurrent transaction (PostgreSQL's serialization failure or deadlock):
    /// the same transaction run again may succeed.
    package var isRetryableConflict: Bool { sqlState?.hasPrefix("40") == true }

    /// An SQLite result code, classified: busy and locked databases, I/O and space errors are
    /// unavailable; constraints are conflicts; corruption is corrupt; anything else (a bug in a
    /// query) counts as corrupt too, so nothing retries it forever.
    package static func sqlite(code: Int32, message: String) -> StorageError {
        let kind: Kind = switch code & 0xff {
        case 5, 6, 10, 13, 14, 15: .unavailable  // BUSY, LOCKED, IOERR, FULL, CANTOPEN, PROTOCOL
        case 19: .conflict  // CONSTRAINT
        default: .corrupt
        }
        return StorageError(kind, "SQLite error \(code): \(message)", backendCode: code)
    }

    package static func corrupt(_ what: String) -> StorageError {
        StorageError(.corrupt, "stored data is not readable: \(what); restore from a backup")
    }

    /// The SQLite result code, when SQLite reported the failure.
    package var sqliteCode: Int32? { backendCode }

    package var description: String { detail }
}
