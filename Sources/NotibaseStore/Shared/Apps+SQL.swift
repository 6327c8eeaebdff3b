package import NotibaseDomain
/// Apps and their credentials: the statements both backends run alike (``SQLExecutor``).
extension SQLExecutor {
    package func app(_ id: String) throws -> AppRecord? {
        try first("SELECT \(Rows.appColumns) FROM apps WHERE id = \(p(1))", [.text(id)], Rows.app)
    }

    package func apps() throws -> [AppRecord] {
        try rows("SELECT \(Rows.appColumns) FROM apps ORDER BY created_at, id", [], Rows.app)
    }

    package func insertApp(id: String, name: String, serverKeyHash: [UInt8], clientKeyHash: [UInt8], requireIdentityVerification: Bool, now: Int) throws {
        _ = try write(
            """
            INSERT INTO apps (id, name, server_key_hash, client_key_hash, created_at, require_identity_verification)
            VALUES (\((1...6).map(p).joined(separator: ", ")))
            """,
            [.text(id), .text(name), .bytes(serverKeyHash), .bytes(clientKeyHash), .int(now), .flag(requireIdentityVerification)])
    }

    /// Changes an app's settings; nil leaves one as it is. Returns the app afterwards.
    package func updateApp(_ id: String, name: String?, requireIdentityVerification: Bool?, pacing: AppPacing?) throws -> AppRecord? {
        try first(
            """
            UPDATE apps SET name = coalesce(\(p(1)), name),
                require_identity_verification = coalesce(CAST(\(p(2)) AS INTEGER), require_identity_verification), pacing = coalesce(\(p(4)), pacing)
            WHERE id = \(p(3)) RETURNING \(Rows.appColumns)
            """,
            [.optionalText(name), requireIdentityVerification.map(SQLParameter.flag) ?? .null, .text(id), .optionalText(try pacing.map(StoredJSON.encode))],
            Rows.app)
    }

    /// The app and kind of the key whose hash is `hash`, in one statement: each column's unique
    /// index looked up (SQLite's `MULTI-INDEX OR`, PostgreSQL's bitmap OR).
    package func keyOwner(hash: [UInt8]) throws -> KeyOwner? {
        try first(
            """
            SELECT id, require_identity_verification, CASE WHEN server_key_hash = \(p(1)) THEN 1 ELSE 0 END FROM apps
            WHERE server_key_hash = \(p(1)) OR client_key_hash = \(p(1))
            """, [.bytes(hash)]) { KeyOwner(appID: $0.text(0), kind: $0.int(2) == 1 ? .server : .client, requiresIdentityVerification: $0.int(1) == 1) }
    }

    /// Replaces one of an app's keys; the old one stops working at once.
    package func replaceKey(appID: String, kind: KeyKind, hash: [UInt8]) throws -> Bool {
        let column = kind == .server ? "server_key_hash" : "client_key_hash"
        return try write("UPDATE apps SET \(column) = \(p(1)) WHERE id = \(p(2))", [.bytes(hash), .text(appID)]) == 1
    }

    /// Stores a provider's sealed credentials (their health starts again) and counts a revision.
    package func putCredentials(appID: String, provider: String, sealed: [UInt8], summary: String, now: Int) throws {
        _ = try write(
            """
            INSERT INTO credentials (app_id, provider, sealed, summary, updated_at) VALUES (\((1...5).map(p).joined(separator: ", ")))
            ON CONFLICT (app_id, provider) DO UPDATE SET sealed = excluded.sealed, summary = excluded.summary, updated_at = excluded.updated_at,
                \(CredentialHealth.resetSQL)
            """,
            [.text(appID), .text(provider), .bytes(sealed), .text(summary), .int(now)])
        try countCredentialsRevision(appID: appID)
    }

    /// Removes a provider's credentials and counts a revision; whether there were any.
    package func deleteCredentials(appID: String, provider: String) throws -> Bool {
        let deleted = try write("DELETE FROM credentials WHERE app_id = \(p(1)) AND provider = \(p(2))", [.text(appID), .text(provider)]) == 1
        if deleted { try countCredentialsRevision(appID: appID) }
        return deleted
    }

    private func countCredentialsRevision(appID: String) throws {
        _ = try write("UPDATE apps SET credentials_revision = credentials_revision + 1 WHERE id = \(p(1))", [.text(appID)])
    }

    package func credentials(appID: String) throws -> [CredentialRecord] {
        try rows("SELECT \(Rows.credentialColumns) FROM credentials WHERE app_id = \(p(1)) ORDER BY provider", [.text(appID)], Rows.credential)
    }

    /// Records a credential's health unless the app's credentials changed since `revision`.
    package func recordCredentialHealth(appID: String, provider: String, revision: Int, _ health: CredentialHealth) throws -> Bool {
        try write(
            """
            UPDATE credentials SET health_state = \(p(1)), last_success_at = \(p(2)), last_failure_at = \(p(3)), last_failure_reason = \(p(4))
            WHERE app_id = \(p(5)) AND provider = \(p(6)) AND EXISTS (SELECT 1 FROM apps WHERE id = \(p(5)) AND credentials_revision = \(p(7)))
            """,
            [.text(health.state.rawValue), .optionalInt(health.lastSuccessAt), .optionalInt(health.lastFailureAt), .optionalText(health.lastFailureReason),
             .text(appID), .text(provider), .int(revision)]) == 1
    }

    /// Records a test's result unless the credential was replaced since (`sealed`).
    package func recordCredentialTest(appID: String, provider: String, sealed: [UInt8], _ result: String) throws -> Bool {
        try write(
            "UPDATE credentials SET test_result = \(p(1)) WHERE app_id = \(p(2)) AND provider = \(p(3)) AND sealed = \(p(4))",
            [.text(result), .text(appID), .text(provider), .bytes(sealed)]) == 1
    }
}

extension AppsStore where Self: SQLReadStore {
    package func createApp(id: String, name: String, serverKeyHash: [UInt8], clientKeyHash: [UInt8], requireIdentityVerification: Bool, now: Int) async throws -> AppRecord {
        try await writing {
            try $0.insertApp(
                id: id, name: name, serverKeyHash: serverKeyHash, clientKeyHash: clientKeyHash, requireIdentityVerification: requireIdentityVerification, now: now)
        }
        return AppRecord(id: id, name: name, credentialsRevision: 0, createdAt: now, requireIdentityVerification: requireIdentityVerification)
    }

    package func updateApp(_ id: String, name: String?, requireIdentityVerification: Bool?, pacing: AppPacing?) async throws -> AppRecord? {
        try await changingApps { (try $0.updateApp(id, name: name, requireIdentityVerification: requireIdentityVerification, pacing: pacing), changed: true) }
    }

    package func replaceKey(appID: String, kind: KeyKind, hash: [UInt8]) async throws -> Bool {
        try await changingApps { (try $0.replaceKey(appID: appID, kind: kind, hash: hash), changed: true) }
    }

    package func apps() async throws -> [AppRecord] {
        try await reading { try $0.apps() }
    }

    /// The foreign keys cascade from the app to everything it owns, its webhook endpoints too
    /// (``SQLReadStore/changingEndpoints(_:)``).
    package func deleteApp(_ id: String) async throws -> Bool {
        try await changingEndpoints { (try $0.write("DELETE FROM apps WHERE id = \($0.p(1))", [.text(id)]) == 1, changed: true) }
    }

    package func app(_ id: String) async throws -> AppRecord? {
        try await reading { try $0.app(id) }
    }
}

extension KeyDirectory where Self: SQLReadStore {
    /// On the connection that writes: SQLite's writer, where every request's key was looked up before.
    package func keyOwner(hash: [UInt8]) async throws -> KeyOwner? {
        try await writing { try $0.keyOwner(hash: hash) }
    }
}

extension CredentialsStore where Self: SQLReadStore {
    package func putCredentials(appID: String, provider: String, sealed: [UInt8], summary: String, now: Int) async throws {
        try await changingApps { executor in
            try executor.putCredentials(appID: appID, provider: provider, sealed: sealed, summary: summary, now: now)
            return ((), changed: true)
        }
    }

    package func deleteCredentials(appID: String, provider: String) async throws -> Bool {
        try await changingApps { executor in
            let deleted = try executor.deleteCredentials(appID: appID, provider: provider)
            return (deleted, changed: deleted)
        }
    }

    package func credentials(appID: String) async throws -> [CredentialRecord] {
        try await reading(app: appID) { try $0.credentials(appID: appID) }
    }

    package func recordCredentialHealth(appID: String, provider: String, revision: Int, _ health: CredentialHealth) async throws -> Bool {
        try await writing { try $0.recordCredentialHealth(appID: appID, provider: provider, revision: revision, health) }
    }

    package func recordCredentialTest(appID: String, provider: String, sealed: [UInt8], _ result: String) async throws -> Bool {
        try await writing { try $0.recordCredentialTest(appID: appID, provider: provider, sealed: sealed, result) }
    }
}
