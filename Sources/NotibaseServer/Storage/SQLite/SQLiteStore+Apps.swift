extension SQLiteStore {
    /// Changes an app's settings; nil leaves one as it is. Returns the app afterwards.
    func updateApp(_ id: String, name: String?, requireIdentityVerification: Bool?, pacing: AppPacing?) throws -> AppRecord? {
        try connection.transaction {
            try connection.run(
                """
                UPDATE apps SET name = coalesce(?, name), require_identity_verification = coalesce(?, require_identity_verification),
                    pacing = coalesce(?, pacing) WHERE id = ?
                """,
                [.optionalText(name), requireIdentityVerification.map { .int($0 ? 1 : 0) } ?? .null, .optionalText(try pacing.map(StoredJSON.encode)), .text(id)])
            return try reads.app(id)
        }
    }

    /// Deletes an app and everything it owns, in one transaction: the foreign keys cascade from
    /// the app to its credentials, devices, messages, idempotency keys and receipts, and from its
    /// messages to their deliveries and their events.
    func deleteApp(_ id: String) throws -> Bool {
        try connection.transaction {
            try connection.run("DELETE FROM apps WHERE id = ?", [.text(id)]) == 1
        }
    }

    /// Replaces one of an app's keys; the old one stops working at once.
    func replaceKey(appID: String, kind: KeyKind, hash: [UInt8]) throws -> Bool {
        let column = kind == .server ? "server_key_hash" : "client_key_hash"
        return try connection.run("UPDATE apps SET \(column) = ? WHERE id = ?", [.blob(hash), .text(appID)]) == 1
    }

    /// The app and kind of the key whose hash is `hash`.
    func keyOwner(hash: [UInt8]) throws -> KeyOwner? {
        for (column, kind) in [("server_key_hash", KeyKind.server), ("client_key_hash", .client)] {
            if let owner = try connection.first(
                "SELECT id, require_identity_verification FROM apps WHERE \(column) = ?", [.blob(hash)],
                { KeyOwner(appID: $0.text(0), kind: kind, requiresIdentityVerification: $0.int(1) == 1) }) {
                return owner
            }
        }
        return nil
    }

    func putCredentials(appID: String, provider: String, sealed: [UInt8], summary: String, now: Int) throws {
        try connection.transaction {
            try connection.run(
                """
                INSERT INTO credentials (app_id, provider, sealed, summary, updated_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (app_id, provider) DO UPDATE SET sealed = excluded.sealed, summary = excluded.summary, updated_at = excluded.updated_at,
                    \(CredentialHealth.resetSQL)
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
}
