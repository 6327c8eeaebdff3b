import NotibaseDomain
/// The database's settings (the admin key's hash): the statements both backends run alike
/// (``SQLExecutor``), on the writing connection.
extension BackendStore where Self: SQLReadStore {
    package func setting(_ name: String) async throws -> [UInt8]? {
        try await writing { try $0.first("SELECT value FROM settings WHERE name = \($0.p(1))", [.text(name)]) { $0.blob(0) } }
    }

    /// Stores `value` under `name` unless it is already set; returns whether it was stored.
    package func insertSettingIfAbsent(_ name: String, _ value: [UInt8]) async throws -> Bool {
        try await writing {
            try $0.write("INSERT INTO settings (name, value) VALUES (\($0.p(1)), \($0.p(2))) ON CONFLICT (name) DO NOTHING", [.text(name), .bytes(value)]) == 1
        }
    }

    package func replaceSetting(_ name: String, _ value: [UInt8]) async throws {
        _ = try await writing {
            try $0.write(
                "INSERT INTO settings (name, value) VALUES (\($0.p(1)), \($0.p(2))) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                [.text(name), .bytes(value)])
        }
    }
}
