import CSQLite
package import NotibaseStore

/// A prepared statement, owned and cached by its ``SQLiteConnection``.
package final class SQLiteStatement {
    private let handle: OpaquePointer
    private unowned let connection: SQLiteConnection

    package init(handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    package func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    package func bind(_ values: [SQLParameter]) throws {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(handle, index)
            case .int(let number): status = sqlite3_bind_int64(handle, index, Int64(number))
            case .text(let text):
                var text = text
                status = text.isEmpty ? notibase_sqlite3_bind_text_transient(handle, index, "", 0) : text.withUTF8 { bytes in
                    bytes.withMemoryRebound(to: CChar.self) {
                        notibase_sqlite3_bind_text_transient(handle, index, $0.baseAddress, Int32($0.count))
                    }
                }
            case .bytes(let bytes):
                status = bytes.withUnsafeBytes {
                    notibase_sqlite3_bind_blob_transient(handle, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count))
                }
            }
            try connection.check(status, "binding parameter \(index)")
        }
    }

    /// Advances to the next row; false when there are no more.
    package func step() throws -> Bool {
        let status = sqlite3_step(handle)
        try connection.check(status, String(cString: sqlite3_sql(handle)))
        return status == SQLITE_ROW
    }

    package func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    package func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    package func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// The bytes of a text column, valid only inside `body` (nil for NULL), read without making a
    /// `String`.
    package func withText<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>?) throws -> T) rethrows -> T {
        guard !isNull(column), let pointer = sqlite3_column_text(handle, column) else { return try body(nil) }
        return try body(UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, column))))
    }

    package func blob(_ column: Int32) -> [UInt8] {
        guard let pointer = sqlite3_column_blob(handle, column) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, column))
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}
extension SQLiteStatement: StoredRow {}
