/// Apps and their credentials: the statements both backends run alike (``SQLExecutor``).
extension SQLExecutor {
    func app(_ id: String) throws -> AppRecord? {
        try first("SELECT \(Rows.appColumns) FROM apps WHERE id = \(p(1))", [.text(id)], Rows.app)
    }

    func apps() throws -> [AppRecord] {
        try rows("SELECT \(Rows.appColumns) FROM apps ORDER BY created_at, id", [], Rows.app)
    }

    func insertApp(id: String, name: String, serverKeyHash: [UInt8], clientKeyHash: [UInt8], requireIdentityVerification: Bool, now: Int) throws {
        _ = try write(
            """
            INSERT INTO apps (id, name, server_key_hash, client_key_hash, created_at, require_identity_verification)
            VALUES (\((1...6).map(p).joined(separator: ", ")))
            """,
            [.text(id), .text(name), .bytes(serverKeyHash), .bytes(clientKeyHash), .int(now), .flag(requireIdentityVerification)])
    }

    func credentials(appID: String) throws -> [CredentialRecord] {
        try rows("SELECT \(Rows.credentialColumns) FROM credentials WHERE app_id = \(p(1)) ORDER BY provider", [.text(appID)], Rows.credential)
    }

    /// Records a credential's health unless the app's credentials changed since `revision`.
    func recordCredentialHealth(appID: String, provider: String, revision: Int, _ health: CredentialHealth) throws -> Bool {
        try write(
            """
            UPDATE credentials SET health_state = \(p(1)), last_success_at = \(p(2)), last_failure_at = \(p(3)), last_failure_reason = \(p(4))
            WHERE app_id = \(p(5)) AND provider = \(p(6)) AND EXISTS (SELECT 1 FROM apps WHERE id = \(p(5)) AND credentials_revision = \(p(7)))
            """,
            [.text(health.state.rawValue), .optionalInt(health.lastSuccessAt), .optionalInt(health.lastFailureAt), .optionalText(health.lastFailureReason),
             .text(appID), .text(provider), .int(revision)]) == 1
    }

    /// Records a test's result unless the credential was replaced since (`sealed`).
    func recordCredentialTest(appID: String, provider: String, sealed: [UInt8], _ result: String) throws -> Bool {
        try write(
            "UPDATE credentials SET test_result = \(p(1)) WHERE app_id = \(p(2)) AND provider = \(p(3)) AND sealed = \(p(4))",
            [.text(result), .text(appID), .text(provider), .bytes(sealed)]) == 1
    }
}

extension AppsStore where Self: SQLReadStore {
    func createApp(id: String, name: String, serverKeyHash: [UInt8], clientKeyHash: [UInt8], requireIdentityVerification: Bool, now: Int) async throws -> AppRecord {
        try await writing {
            try $0.insertApp(
                id: id, name: name, serverKeyHash: serverKeyHash, clientKeyHash: clientKeyHash, requireIdentityVerification: requireIdentityVerification, now: now)
        }
        return AppRecord(id: id, name: name, credentialsRevision: 0, createdAt: now, requireIdentityVerification: requireIdentityVerification)
    }

    func apps() async throws -> [AppRecord] {
        try await reading { try $0.apps() }
    }

    func app(_ id: String) async throws -> AppRecord? {
        try await reading { try $0.app(id) }
    }
}

extension CredentialsStore where Self: SQLReadStore {
    func credentials(appID: String) async throws -> [CredentialRecord] {
        try await reading(app: appID) { try $0.credentials(appID: appID) }
    }

    func recordCredentialHealth(appID: String, provider: String, revision: Int, _ health: CredentialHealth) async throws -> Bool {
        try await writing { try $0.recordCredentialHealth(appID: appID, provider: provider, revision: revision, health) }
    }

    func recordCredentialTest(appID: String, provider: String, sealed: [UInt8], _ result: String) async throws -> Bool {
        try await writing { try $0.recordCredentialTest(appID: appID, provider: provider, sealed: sealed, result) }
    }
}
