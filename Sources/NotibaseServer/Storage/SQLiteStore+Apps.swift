extension SQLiteStore {
    func createApp(id: String, name: String, serverKeyHash: [UInt8], clientKeyHash: [UInt8], now: Int) throws -> AppRecord {
        try connection.run(
            "INSERT INTO apps (id, name, server_key_hash, client_key_hash, created_at) VALUES (?, ?, ?, ?, ?)",
            [.text(id), .text(name), .blob(serverKeyHash), .blob(clientKeyHash), .int(now)])
        return AppRecord(id: id, name: name, credentialsRevision: 0, createdAt: now)
    }

    func apps() throws -> [AppRecord] {
        try connection.query("SELECT id, name, credentials_revision, created_at FROM apps ORDER BY created_at, id", [], Self.app)
    }

    func app(_ id: String) throws -> AppRecord? {
        try connection.first("SELECT id, name, credentials_revision, created_at FROM apps WHERE id = ?", [.text(id)], Self.app)
    }

    /// Deletes an app and everything it owns.
    func deleteApp(_ id: String) throws -> Bool {
        try connection.transaction {
            guard try connection.run("DELETE FROM apps WHERE id = ?", [.text(id)]) == 1 else { return false }
            let messages = "SELECT seq FROM messages WHERE app_id = ?1"
            try connection.run("DELETE FROM delivery_events WHERE delivery_seq IN (SELECT seq FROM deliveries WHERE message_seq IN (\(messages)))", [.text(id)])
            try connection.run("DELETE FROM deliveries WHERE message_seq IN (\(messages))", [.text(id)])
            try connection.run("DELETE FROM idempotency_keys WHERE app_id = ?", [.text(id)])
            try connection.run("DELETE FROM receipts WHERE app_id = ?", [.text(id)])
            return true
        }
    }

    /// Replaces one of an app's keys; the old one stops working at once.
    func replaceKey(appID: String, kind: KeyKind, hash: [UInt8]) throws -> Bool {
        let column = kind == .server ? "server_key_hash" : "client_key_hash"
        return try connection.run("UPDATE apps SET \(column) = ? WHERE id = ?", [.blob(hash), .text(appID)]) == 1
    }

    /// The app and kind of the key whose hash is `hash`.
    func keyOwner(hash: [UInt8]) throws -> KeyOwner? {
        if let id = try connection.first("SELECT id FROM apps WHERE server_key_hash = ?", [.blob(hash)], { $0.text(0) }) {
            return KeyOwner(appID: id, kind: .server)
        }
        if let id = try connection.first("SELECT id FROM apps WHERE client_key_hash = ?", [.blob(hash)], { $0.text(0) }) {
            return KeyOwner(appID: id, kind: .client)
        }
        return nil
    }

    func putCredentials(appID: String, provider: String, sealed: [UInt8], summary: String, now: Int) throws {
        try connection.transaction {
            try connection.run(
                """
                INSERT INTO credentials (app_id, provider, sealed, summary, updated_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (app_id, provider) DO UPDATE SET sealed = excluded.sealed, summary = excluded.summary, updated_at = excluded.updated_at
                """,
                [.text(appID), .text(provider), .blob(sealed), .text(summary), .int(now)])
            try connection.run("UPDATE apps SET credentials_revision = credentials_revision + 1 WHERE id = ?", [.text(appID)])
        }
    }

    func deleteCredentials(appID: String, provider: String) throws -> Bool {
        try connection.transaction {
            let deleted = try connection.run("DELETE FROM credentials WHERE app_id = ? AND provider = ?", [.text(appID), .text(provider)]) == 1
            if deleted { try connection.run("UPDATE apps SET credentials_revision = credentials_revision + 1 WHERE id = ?", [.text(appID)]) }
            return deleted
        }
    }

    func credentials(appID: String) throws -> [CredentialRecord] {
        try connection.query("SELECT provider, sealed, summary, updated_at FROM credentials WHERE app_id = ? ORDER BY provider", [.text(appID)]) {
            CredentialRecord(provider: $0.text(0), sealed: $0.blob(1), summary: $0.text(2), updatedAt: $0.int(3))
        }
    }

    private static func app(_ row: SQLiteStatement) -> AppRecord {
        AppRecord(id: row.text(0), name: row.text(1), credentialsRevision: row.int(2), createdAt: row.int(3))
    }
}
